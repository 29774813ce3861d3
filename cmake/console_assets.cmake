# The console's page, script, style and Apache ECharts (from npm), turned into
# a C++ source of tessel_console at build time (scripts/console-assets.sh).
set(CONSOLE_WEB ${PROJECT_SOURCE_DIR}/src/console/web)
set(CONSOLE_ASSETS_CPP ${CMAKE_BINARY_DIR}/generated/console_assets.cpp)
file(GLOB CONSOLE_WEB_FILES CONFIGURE_DEPENDS ${CONSOLE_WEB}/*.html ${CONSOLE_WEB}/*.js
     ${CONSOLE_WEB}/*.css ${CONSOLE_WEB}/package*.json)
add_custom_command(
  OUTPUT ${CONSOLE_ASSETS_CPP}
  COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/console-assets.sh ${CONSOLE_WEB}
          ${CMAKE_BINARY_DIR}/console-npm ${CONSOLE_ASSETS_CPP}
  DEPENDS ${CONSOLE_WEB_FILES} ${PROJECT_SOURCE_DIR}/scripts/console-assets.sh
          ${PROJECT_SOURCE_DIR}/src/console/embed_assets.py
  COMMENT "Building the console assets (npm ci, embedding)"
  VERBATIM)
target_sources(tessel_console PRIVATE ${CONSOLE_ASSETS_CPP})
