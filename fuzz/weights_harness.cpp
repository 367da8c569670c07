// Fuzz harness for model.safetensors.index.json (engine/io/weight_store.h, parse_shard_index):
// any text must give a checked index or a DataError.  An accepted index names at least one
// tensor, lists exactly the shards its weight_map uses (sorted, each once, each a plain file
// name inside the folder), and written back out with json::quote parses to the same index.
// The parser works on text, so no files are written.
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/errors.h"
#include "engine/io/json.h"
#include "engine/io/weight_store.h"
#include "fuzz/fuzz_entry.h"

namespace attnviz::fuzz {

namespace {

[[noreturn]] void violated(const std::string& what) {
    throw InvariantViolation("shard_index: " + what);
}

bool inside_folder(const std::string& file) {
    return !file.empty() && file != "." && file != ".." &&
           file.find_first_of(std::string("/\\\0", 3)) == std::string::npos;
}

std::string write_index(const io::ShardIndex& index) {
    std::string out = "{\"weight_map\":{";
    bool first = true;
    for (const auto& [tensor, shard] : index.weight_map) {
        if (!first) out += ',';
        first = false;
        out += io::json::quote(tensor) + ":" + io::json::quote(shard);
    }
    return out + "}}";
}

}  // namespace

Outcome run_shard_index(std::string_view input) {
    io::ShardIndex index;
    try {
        index = io::parse_shard_index(input, "model.safetensors.index.json");
    } catch (const DataError&) {
        return Outcome::Rejected;
    } catch (const std::invalid_argument&) {
        return Outcome::Rejected;
    }
    if (index.weight_map.empty()) violated("an accepted index lists no tensors");
    std::set<std::string> used;
    for (const auto& [tensor, shard] : index.weight_map) {
        if (!io::json::is_valid_utf8(tensor) || !io::json::is_valid_utf8(shard))
            violated("a name is not valid UTF-8");
        if (!inside_folder(shard))
            violated("shard " + io::json::quote(shard) + " is not a file name in the folder");
        used.insert(shard);
    }
    if (std::vector<std::string>(used.begin(), used.end()) != index.shards)
        violated(std::to_string(index.shards.size()) + " shards listed, but the weight_map uses " +
                 std::to_string(used.size()) + " (or not in sorted order)");

    const std::string written = write_index(index);
    io::ShardIndex again;
    try {
        again = io::parse_shard_index(written, "model.safetensors.index.json (re-written)");
    } catch (const DataError& e) {
        violated(std::string("an accepted index, written back, is refused: ") + e.what());
    }
    if (again.weight_map != index.weight_map || again.shards != index.shards)
        violated("an accepted index, written back, parses differently");
    return Outcome::Accepted;
}

}  // namespace attnviz::fuzz
