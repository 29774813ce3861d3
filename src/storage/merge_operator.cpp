#include "storage/merge_operator.h"

#include <string_view>

#include "storage/reconcile.h"
#include "storage/row_codec.h"

namespace tessel::storage {
namespace {

std::string_view view(const rocksdb::Slice& s) {
    return {s.data(), s.size()};
}

// Folds `values` (oldest first) into one encoded record of the same type.
// False when a value is malformed or the types disagree: RocksDB then
// reports corruption for the key instead of silently losing data.
template <typename Values>
bool fold(const Values& values, std::string* out) {
    // RocksDB may hand over a reused buffer (iterators do), despite the
    // interface comment promising an empty one.
    out->clear();
    if (values.empty()) return false;
    auto first = peek_record(values.front());
    if (!first) return false;
    if (first->type == RecordType::kHeader) {
        HeaderValue acc, next;
        if (!decode_header(values.front(), &acc)) return false;
        for (size_t i = 1; i < values.size(); ++i) {
            if (!decode_header(values[i], &next)) return false;
            merge_header(&acc, std::move(next));
        }
        encode_header(acc, out);
        return true;
    }
    RowValue acc, next;
    if (!decode_row(values.front(), &acc)) return false;
    for (size_t i = 1; i < values.size(); ++i) {
        if (!decode_row(values[i], &next)) return false;
        merge_row(&acc.row, std::move(next.row));
    }
    encode_row(acc.pk_length, acc.row, out);
    return true;
}

class TableMergeOperator : public rocksdb::MergeOperator {
  public:
    bool FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const override {
        if (in.existing_value == nullptr && in.operand_list.size() == 1) {
            // A lone operand is already a well-formed value (the write path
            // normalises it): hand it back without a decode/encode round trip.
            if (!peek_record(view(in.operand_list[0]))) return false;
            out->existing_operand = in.operand_list[0];
            return true;
        }
        std::vector<std::string_view> values;
        values.reserve(in.operand_list.size() + 1);
        if (in.existing_value != nullptr) values.push_back(view(*in.existing_value));
        for (const auto& op : in.operand_list)
            values.push_back(view(op));
        return fold(values, &out->new_value);
    }

    bool PartialMergeMulti(const rocksdb::Slice& /*key*/,
                           const std::deque<rocksdb::Slice>& operands, std::string* new_value,
                           rocksdb::Logger* /*logger*/) const override {
        std::vector<std::string_view> values;
        values.reserve(operands.size());
        for (const auto& op : operands)
            values.push_back(view(op));
        return fold(values, new_value);
    }

    const char* Name() const override { return "TesselTableMerge"; }
};

}  // namespace

std::shared_ptr<rocksdb::MergeOperator> make_table_merge_operator() {
    return std::make_shared<TableMergeOperator>();
}

}  // namespace tessel::storage
