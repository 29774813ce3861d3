#include <sys/utsname.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "report.h"

namespace tessel::bench {

MachineInfo read_machine_info() {
    MachineInfo m;
    std::ifstream cpu("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpu, line)) {
        if (line.rfind("model name", 0) == 0 && m.cpu_model.empty()) {
            auto colon = line.find(':');
            if (colon != std::string::npos) m.cpu_model = line.substr(colon + 2);
        }
    }
    m.cores = static_cast<int>(std::thread::hardware_concurrency());
    std::ifstream mem("/proc/meminfo");
    while (std::getline(mem, line)) {
        if (line.rfind("MemTotal:", 0) == 0) {
            std::istringstream in(line.substr(9));
            uint64_t kb = 0;
            in >> kb;
            m.ram_bytes = kb * 1024;
        }
    }
    utsname u{};
    if (uname(&u) == 0) m.kernel = std::string(u.sysname) + " " + u.release;
    std::ifstream os("/etc/os-release");
    while (std::getline(os, line)) {
        if (line.rfind("PRETTY_NAME=", 0) == 0) {
            m.os = line.substr(12);
            if (m.os.size() >= 2 && m.os.front() == '"') m.os = m.os.substr(1, m.os.size() - 2);
        }
    }
    std::ifstream load("/proc/loadavg");
    load >> m.loadavg_1m;
    return m;
}

}  // namespace tessel::bench
