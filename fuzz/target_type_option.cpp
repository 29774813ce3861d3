// fuzz_type_option: the [option] type descriptors of Rows and Prepared metadata.
#include <string_view>

#include "protocol/type_option.h"
#include "protocol/wire.h"
#include "targets.h"

namespace tessel::fuzz {

void fuzz_type_option(const uint8_t* data, size_t size) {
    const std::string_view in(reinterpret_cast<const char*>(data), size);
    protocol::WireReader r(in);
    auto type = protocol::read_type_option(r);
    if (!type.is_ok()) return;
    if (r.position() > size) fuzz_fail("type_option", "reader past the end");
    (void)(*type)->cql_name();

    protocol::WireWriter w;
    protocol::write_type_option(**type, w);
    protocol::WireReader again(w.data());
    auto back = protocol::read_type_option(again);
    if (!back.is_ok()) fuzz_fail("type_option", "cannot read back what write_type_option wrote");
    if (!again.at_end()) fuzz_fail("type_option", "read back left bytes over");
    if (!(*back)->equals(**type)) fuzz_fail("type_option", "round trip changed the type");
}

}  // namespace tessel::fuzz
