// Fuzz harness for config.json (engine/models/config.h): any text must give a configuration
// that a forward pass can size without overflow, or a DataError.
#include <limits>
#include <string>

#include "engine/errors.h"
#include "engine/models/config.h"
#include "fuzz/fuzz_entry.h"

namespace attnviz::fuzz {

Outcome run_model_config(std::string_view input) {
    models::ModelConfig c;
    try {
        c = models::parse_config(input, "config.json");
    } catch (const DataError&) {
        return Outcome::Rejected;
    }
    const auto positive = [](std::int64_t v) { return v > 0; };
    if (!positive(c.hidden_size) || !positive(c.num_layers) || !positive(c.num_heads) ||
        !positive(c.num_kv_heads) || !positive(c.head_dim) || !positive(c.vocab_size) ||
        !positive(c.max_positions))
        throw InvariantViolation("model_config: an accepted config has a size <= 0");
    // A Llama-family model without an MLP (intermediate_size 0) is an attention-only model,
    // as transformers builds it (the shipped attn-only-2l); every other family needs one.
    if (c.intermediate_size < 0 || (c.intermediate_size == 0 && c.family != models::Family::Llama))
        throw InvariantViolation("model_config: an accepted config has no MLP width");
    if (c.num_heads % c.num_kv_heads != 0)
        throw InvariantViolation("model_config: kv heads do not divide the heads");
    if (c.rotary() && c.head_dim % 2 != 0)
        throw InvariantViolation("model_config: odd head_dim with rotary embeddings");
    // Every weight shape the layout asks for must be computable in 64 bits.
    const double biggest =
        double(c.vocab_size) * double(c.hidden_size) +
        double(c.num_heads + 2 * c.num_kv_heads) * double(c.head_dim) * double(c.hidden_size) +
        2.0 * double(c.intermediate_size) * double(c.hidden_size);
    if (!(biggest < double(std::numeric_limits<std::int64_t>::max())))
        throw InvariantViolation("model_config: weight sizes overflow 64 bits");
    return Outcome::Accepted;
}

}  // namespace attnviz::fuzz
