#include "protocol/type_option.h"

#include <gtest/gtest.h>

#include <string>

#include "type_builders.h"

namespace tessel::protocol {
namespace {

using namespace std::string_literals;
using test_types::same_type;
using test_types::t;
using test_types::udt;

std::string encode(const CqlType& type) {
    WireWriter w;
    write_type_option(type, w);
    return w.take();
}

TypePtr decode(std::string_view bytes) {
    WireReader r(bytes);
    auto type = read_type_option(r);
    EXPECT_TRUE(type.is_ok()) << type.status().message();
    EXPECT_TRUE(r.at_end());
    return type.is_ok() ? *type : nullptr;
}

TEST(TypeOptionTest, NativeTypesRoundTrip) {
    for (uint16_t id = 0x0001; id <= 0x0014; ++id) {
        if (id == 0x000A) continue;
        const TypePtr type = t(static_cast<TypeKind>(id));
        const std::string bytes = encode(*type);
        EXPECT_EQ(bytes, (std::string{static_cast<char>(0), static_cast<char>(id)}));
        const TypePtr back = decode(bytes);
        ASSERT_TRUE(back);
        EXPECT_TRUE(same_type(*back, *type)) << id;
    }
}

TEST(TypeOptionTest, TextIsVarcharAndLegacyTextReadsAsVarchar) {
    EXPECT_EQ(encode(*t(TypeKind::kVarchar)), "\x00\x0D"s);
    EXPECT_EQ(decode("\x00\x0A"s)->kind, TypeKind::kVarchar);
}

TEST(TypeOptionTest, DurationIsCustomInV4) {
    const std::string bytes = encode(*t(TypeKind::kDuration));
    std::string expected = "\x00\x00\x00"s;
    expected += static_cast<char>(kDurationTypeClass.size());
    expected += kDurationTypeClass;
    EXPECT_EQ(bytes, expected);
    EXPECT_EQ(decode(bytes)->kind, TypeKind::kDuration);
    EXPECT_EQ(decode("\x00\x15"s)->kind, TypeKind::kDuration);  // v5 native id
}

TEST(TypeOptionTest, OtherCustomClassesKeepTheirName) {
    auto custom = std::make_shared<CqlType>();
    custom->kind = TypeKind::kCustom;
    custom->udt_name = "com.example.Foo";
    const TypePtr back = decode(encode(*custom));
    EXPECT_EQ(back->kind, TypeKind::kCustom);
    EXPECT_EQ(back->udt_name, "com.example.Foo");
}

TEST(TypeOptionTest, CollectionsLayout) {
    EXPECT_EQ(encode(*t(TypeKind::kSet, false, {t(TypeKind::kVarchar)})), "\x00\x22\x00\x0D"s);
    EXPECT_EQ(encode(*t(TypeKind::kMap, false, {t(TypeKind::kVarchar), t(TypeKind::kBlob)})),
              "\x00\x21\x00\x0D\x00\x03"s);
    EXPECT_EQ(encode(*t(TypeKind::kList, true, {t(TypeKind::kInt)})), "\x00\x20\x00\x09"s);
}

TEST(TypeOptionTest, NestedTypesRoundTrip) {
    const TypePtr address = udt("ks", "address", {"street", "zip", "tags"},
                                {t(TypeKind::kVarchar), t(TypeKind::kInt),
                                 t(TypeKind::kSet, true, {t(TypeKind::kVarchar)})});
    const TypePtr tuple =
        t(TypeKind::kTuple, true, {t(TypeKind::kInt), address, t(TypeKind::kDuration)});
    const TypePtr type =
        t(TypeKind::kMap, false, {t(TypeKind::kVarchar), t(TypeKind::kList, true, {tuple})});
    const TypePtr back = decode(encode(*type));
    ASSERT_TRUE(back);
    EXPECT_TRUE(same_type(*back, *type));
    EXPECT_EQ(back->params[1]->params[0]->params[1]->field_names[2], "tags");
}

TEST(TypeOptionTest, UdtLayout) {
    const TypePtr type = udt("k", "u", {"f"}, {t(TypeKind::kInt)});
    EXPECT_EQ(encode(*type),
              "\x00\x30\x00\x01k\x00\x01u\x00\x01\x00\x01"
              "f\x00\x09"s);
}

TEST(TypeOptionTest, MalformedOptionsAreProtocolErrors) {
    for (std::string bad : {"\x00"s, "\x00\x99"s, "\x00\x20"s, "\x00\x21\x00\x09"s,
                            "\x00\x30\x00\x01k"s, "\x00\x31\x00\x02\x00\x09"s,
                            "\x00\x00\x00\x05"
                            "ab"s,
                            "\xFF\xFF"s}) {
        WireReader r(bad);
        auto type = read_type_option(r);
        ASSERT_FALSE(type.is_ok());
        EXPECT_EQ(type.status().code(), ErrorCode::kProtocolError);
    }
}

TEST(TypeOptionTest, DeepNestingIsRejected) {
    std::string deep;
    for (int i = 0; i < 10000; ++i)
        deep += "\x00\x20"s;
    deep += "\x00\x09"s;
    WireReader r(deep);
    auto type = read_type_option(r);
    ASSERT_FALSE(type.is_ok());
    EXPECT_NE(type.status().message().find("nesting"), std::string::npos);

    std::string ok;
    for (int i = 0; i < kMaxTypeNesting; ++i)
        ok += "\x00\x20"s;
    ok += "\x00\x09"s;
    WireReader r2(ok);
    EXPECT_TRUE(read_type_option(r2).is_ok());
}

}  // namespace
}  // namespace tessel::protocol
