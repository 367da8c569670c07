#include "engine/layers/attention_layer_file.h"

#include <stdexcept>

#include "engine/errors.h"
#include "engine/io/safetensors.h"

namespace attnviz {

MultiHeadAttention load_attention_layer(const std::string& path, std::int64_t num_heads) {
    const io::TensorMap state = io::read_safetensors(path);  // DataError naming the file
    if (!state.count("out_proj.weight") && !state.count("in_proj_weight") &&
        !state.count("q_proj_weight"))
        throw DataError(path +
                        ": has no out_proj.weight, in_proj_weight or q_proj_weight, so it is not "
                        "a torch.nn.MultiheadAttention state_dict");
    if (num_heads == 0) {
        const auto additive = state.find("additive_v");
        num_heads =
            additive != state.end() && additive->second.rank() == 2 ? additive->second.dim(0) : 1;
    }
    try {
        const MultiHeadAttentionOptions options = options_from_state_dict(state, num_heads);
        MultiHeadAttention layer(options);  // validates: num_heads divides embed_dim
        layer.load_state_dict(state);       // every shape, finite values, nothing unexpected
        return layer;
    } catch (const std::invalid_argument& e) {
        throw DataError(path + ": " + e.what());
    }
}

}  // namespace attnviz
