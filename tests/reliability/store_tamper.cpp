// store_tamper: damages a stopped node's storage the way a bad disk or an
// operator's mistake would, for the recovery tests (tests/reliability).
//
//   store_tamper STORE_DIR corrupt-catalog   overwrite one table definition with garbage
//   store_tamper STORE_DIR drop-catalog      delete every schema record (the catalog is gone)
//
// Opens RocksDB directly with every column family, compactions off and no
// merge operator (it never reads table data), changes the catalog family and
// closes. Exit 0 when the change was made.
#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace {

int fail(const std::string& what, const rocksdb::Status& s) {
    std::fprintf(stderr, "store_tamper: %s: %s\n", what.c_str(), s.ToString().c_str());
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: store_tamper STORE_DIR corrupt-catalog|drop-catalog\n");
        return 2;
    }
    const std::string dir = argv[1];
    const std::string action = argv[2];
    rocksdb::DBOptions db_opts;
    std::vector<std::string> names;
    auto s = rocksdb::DB::ListColumnFamilies(db_opts, dir, &names);
    if (!s.ok()) return fail("cannot list column families of " + dir, s);
    rocksdb::ColumnFamilyOptions cf_opts;
    cf_opts.disable_auto_compactions = true;
    std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
    for (const auto& n : names)
        descriptors.emplace_back(n, cf_opts);
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    s = rocksdb::DB::Open(db_opts, dir, descriptors, &handles, &raw);
    if (!s.ok()) return fail("cannot open " + dir, s);
    std::unique_ptr<rocksdb::DB> db(raw);
    rocksdb::ColumnFamilyHandle* catalog = nullptr;
    for (size_t i = 0; i < names.size(); ++i) {
        if (names[i] == "catalog") catalog = handles[i];
    }
    int rc = 0;
    if (catalog == nullptr) {
        std::fprintf(stderr, "store_tamper: no catalog family in %s\n", dir.c_str());
        rc = 1;
    } else {
        rocksdb::WriteBatch batch;
        int changed = 0;
        std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions(), catalog));
        for (it->Seek("schema/"); it->Valid() && it->key().starts_with("schema/"); it->Next()) {
            if (action == "drop-catalog") {
                batch.Delete(catalog, it->key());
                ++changed;
            } else if (action == "corrupt-catalog" && it->key().starts_with("schema/table/")) {
                batch.Put(catalog, it->key(), std::string("\x7f\xff garbage \x01\x02", 13));
                ++changed;
                break;
            }
        }
        it.reset();
        if (changed == 0) {
            std::fprintf(stderr, "store_tamper: nothing to %s in %s\n", action.c_str(),
                         dir.c_str());
            rc = 1;
        } else {
            rocksdb::WriteOptions wo;
            wo.sync = true;
            s = db->Write(wo, &batch);
            if (!s.ok())
                rc = fail("write failed", s);
            else
                std::printf("store_tamper: %s: %d records changed\n", action.c_str(), changed);
        }
    }
    for (auto* h : handles)
        db->DestroyColumnFamilyHandle(h);
    s = db->Close();
    if (!s.ok() && rc == 0) rc = fail("close failed", s);
    return rc;
}
