// One function per fuzz target: run a single input through a parser of outside data and
// check what must hold for every input.  The libFuzzer executables (fuzz/fuzz_*.cpp) and
// the regression test that replays fuzz/regressions/ and fuzz/corpus/
// (tests/test_fuzz_regressions.cpp) call exactly these functions, so a crash the fuzzers
// find is replayed by the same code in every ordinary build, with or without sanitizers.
//
// Contract: the parsers may refuse an input only with the exceptions the engine documents
// (DataError, UsageError, std::invalid_argument; json::ParseError for the JSON parser).  An
// entry catches those and returns Outcome::Rejected.  Anything else is a bug and leaves the
// entry: a broken invariant throws InvariantViolation, any other exception passes through
// unchanged, and sanitizer reports stop the process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace attnviz::fuzz {

enum class Outcome { Accepted, Rejected };

/// A property every input must keep failed; the message says which and with what values.
class InvariantViolation : public std::logic_error {
  public:
    using std::logic_error::logic_error;
};

/// .npy bytes through parse_npy and parse_npy_mask; accepted arrays must survive
/// serialize -> parse unchanged, and the two readers must agree.
Outcome run_npy(std::string_view input);
/// safetensors bytes through parse_safetensors_contents; accepted files must survive
/// serialize -> parse unchanged (tensors bit for bit, metadata).
Outcome run_safetensors(std::string_view input);
/// Byte 0 picks the options (bit 0 lowercase, bit 1 special tokens, bits 2..7 max_tokens,
/// 0 = no limit); the rest is the text for tokenize and split_token_list.  Tokens must be
/// non-empty valid UTF-8, tokens_to_json must parse back to them, a token limit must give a
/// prefix of the unlimited result, and a split list must split again to itself.
Outcome run_tokenizer(std::string_view input);
/// The input split at NUL bytes is an argument list for the whole command line
/// (attnviz::cli::parse_command_line, which parses without running): a refusal must be one
/// line naming the subcommand, and an accepted configuration (a subcommand's, or the
/// desktop app's), written back as arguments, must parse to itself.
Outcome run_options(std::string_view input);
/// One JSON document through json::parse; an accepted value, written back out with
/// json::quote, must parse to the same value.
Outcome run_json(std::string_view input);

/// config.json text through models::parse_config: an accepted config has positive sizes that
/// divide as a forward pass needs and weight sizes that fit 64 bits (fuzz/config_harness.cpp).
Outcome run_model_config(std::string_view input);
/// model.safetensors.index.json text through io::parse_shard_index (fuzz/weights_harness.cpp).
Outcome run_shard_index(std::string_view input);
/// tokenizer.json text (and a text to encode after the first NUL) through HfTokenizer
/// (fuzz/tokenizer_json_harness.cpp).
Outcome run_tokenizer_json(std::string_view input);
/// GGUF bytes through io::GgufFile::parse (fuzz/gguf_harness.cpp).
Outcome run_gguf(std::string_view input);

struct Target {
    std::string_view name;  ///< folder under fuzz/corpus, fuzz/regressions and fuzz/dict
    Outcome (*run)(std::string_view input);
};

/// Every target of this library (no Qt), in the order run_fuzzers.sh runs them.
std::span<const Target> targets();
/// The name of every fuzz target, also of those whose entry needs Qt and so lives in another
/// library (session: fuzz/fuzz_session_entry.h).  Folders under fuzz/corpus and
/// fuzz/regressions must be named after one of these.
std::span<const std::string_view> target_names();
/// The target called `name`, or nullptr.
const Target* find_target(std::string_view name);

/// LLVMFuzzerTestOneInput's body: runs `run` on the bytes and returns 0; an exception that
/// leaves the entry is printed with its type and message, then the process aborts so
/// libFuzzer records the input as a crash.
int run_for_libfuzzer(Outcome (*run)(std::string_view), const std::uint8_t* data, std::size_t size);

}  // namespace attnviz::fuzz
