// The families' layouts (weight_layout.h): each family's tensor names under its own
// prefixes, and the shapes config.json implies for them.
#include "engine/models/weight_layout.h"

namespace attnviz::models::detail {

std::array<std::vector<Param>, kLayerWeightCount> layer_tensors(const LayerParams& p) {
    return {{{p.norm1_w},
             {p.norm1_b},
             {p.norm2_w},
             {p.norm2_b},
             p.qkv_w,
             p.qkv_b,
             {p.q_norm},
             {p.k_norm},
             {p.o_w},
             {p.o_b},
             p.up_w,
             p.up_b,
             {p.down_w},
             {p.down_b}}};
}

bool is_matrix(const std::vector<Param>& tensors) {
    return !tensors.empty() && tensors.front().shape.size() == 2;
}

namespace {

std::string layer_prefix(const ModelConfig& c, Index i) {
    const std::string n = std::to_string(i);
    switch (c.family) {
        case Family::Bert:
            return "encoder.layer." + n + ".";
        case Family::DistilBert:
            return "transformer.layer." + n + ".";
        case Family::Gpt2:
            return "h." + n + ".";
        case Family::Llama:
            return "layers." + n + ".";
    }
    return {};
}

/// A post-LayerNorm encoder layer's modules: BERT's and DistilBERT's have the same parts.
struct EncoderLayerNames {
    const char* qkv[3];
    const char* out;
    const char* attention_norm;  ///< after the attention's residual add
    const char* up;
    const char* down;
    const char* mlp_norm;  ///< after the MLP's residual add
};

constexpr EncoderLayerNames kBertLayerNames = {
    {"attention.self.query", "attention.self.key", "attention.self.value"},
    "attention.output.dense",
    "attention.output.LayerNorm",
    "intermediate.dense",
    "output.dense",
    "output.LayerNorm"};

constexpr EncoderLayerNames kDistilBertLayerNames = {
    {"attention.q_lin", "attention.k_lin", "attention.v_lin"},
    "attention.out_lin",
    "sa_layer_norm",
    "ffn.lin1",
    "ffn.lin2",
    "output_layer_norm"};

}  // namespace

LayerParams layer_params(const ModelConfig& c, Index i) {
    const std::string p = layer_prefix(c, i);
    const Index E = c.hidden_size, H = c.num_heads, KV = c.num_kv_heads, d = c.head_dim;
    const Index I = c.intermediate_size;
    LayerParams l;
    auto lin = [&](const std::string& name, Index out, Index in, bool bias, Param* w, Param* b) {
        *w = {p + name + ".weight", {out, in}};
        if (bias) *b = {p + name + ".bias", {out}};
    };
    switch (c.family) {
        case Family::Bert:
        case Family::DistilBert: {
            const EncoderLayerNames& n =
                c.family == Family::Bert ? kBertLayerNames : kDistilBertLayerNames;
            Param w, b;
            for (const char* q : n.qkv) {
                lin(q, E, E, true, &w, &b);
                l.qkv_w.push_back(w);
                l.qkv_b.push_back(b);
            }
            lin(n.out, E, E, true, &l.o_w, &l.o_b);
            l.norm1_w = {p + n.attention_norm + ".weight", {E}};
            l.norm1_b = {p + n.attention_norm + ".bias", {E}};
            lin(n.up, I, E, true, &w, &b);
            l.up_w.push_back(w);
            l.up_b.push_back(b);
            lin(n.down, E, I, true, &l.down_w, &l.down_b);
            l.norm2_w = {p + n.mlp_norm + ".weight", {E}};
            l.norm2_b = {p + n.mlp_norm + ".bias", {E}};
            break;
        }
        case Family::Gpt2: {
            const auto conv1d = [&](const char* name, Index in, Index out) {
                return c.linear_weights ? Param{p + name, {out, in}}
                                        : Param{p + name, {in, out}, true};
            };
            l.norm1_w = {p + "ln_1.weight", {E}};
            l.norm1_b = {p + "ln_1.bias", {E}};
            l.qkv_w.push_back(conv1d("attn.c_attn.weight", E, 3 * E));
            l.qkv_b.push_back({p + "attn.c_attn.bias", {3 * E}});
            l.o_w = conv1d("attn.c_proj.weight", E, E);
            l.o_b = {p + "attn.c_proj.bias", {E}};
            l.norm2_w = {p + "ln_2.weight", {E}};
            l.norm2_b = {p + "ln_2.bias", {E}};
            l.up_w.push_back(conv1d("mlp.c_fc.weight", E, I));
            l.up_b.push_back({p + "mlp.c_fc.bias", {I}});
            l.down_w = conv1d("mlp.c_proj.weight", I, E);
            l.down_b = {p + "mlp.c_proj.bias", {E}};
            break;
        }
        case Family::Llama: {
            l.norm1_w = {p + "input_layernorm.weight", {E}};
            const Index outs[3] = {H * d, KV * d, KV * d};
            const char* names[3] = {"q_proj", "k_proj", "v_proj"};
            for (int k = 0; k < 3; ++k) {
                Param w, b;
                lin(std::string("self_attn.") + names[k], outs[k], E, c.attention_bias, &w, &b);
                l.qkv_w.push_back(w);
                if (c.attention_bias) l.qkv_b.push_back(b);
            }
            lin("self_attn.o_proj", E, H * d, c.o_proj_bias, &l.o_w, &l.o_b);
            if (c.qk_norm) {
                l.q_norm = {p + "self_attn.q_norm.weight", {d}};
                l.k_norm = {p + "self_attn.k_norm.weight", {d}};
            }
            // Attention only (intermediate_size 0): the file's zero-width MLP weights and the
            // norm before them change nothing, so they are neither read nor required.
            if (I == 0) break;
            l.norm2_w = {p + "post_attention_layernorm.weight", {E}};
            for (const char* n : {"mlp.gate_proj", "mlp.up_proj"}) {
                Param w, b;
                lin(n, I, E, c.mlp_bias, &w, &b);
                l.up_w.push_back(w);
                if (c.mlp_bias) l.up_b.push_back(b);
            }
            lin("mlp.down_proj", E, I, c.mlp_bias, &l.down_w, &l.down_b);
            break;
        }
    }
    return l;
}

GlobalParams global_params(const ModelConfig& c) {
    const Index E = c.hidden_size;
    GlobalParams g;
    switch (c.family) {
        case Family::Bert:
        case Family::DistilBert:
            g.word = {"embeddings.word_embeddings.weight", {c.vocab_size, E}};
            g.position = {"embeddings.position_embeddings.weight", {c.max_positions, E}};
            if (c.family == Family::Bert && c.type_vocab_size > 0)
                g.token_type = {"embeddings.token_type_embeddings.weight", {c.type_vocab_size, E}};
            g.emb_norm_w = {"embeddings.LayerNorm.weight", {E}};
            g.emb_norm_b = {"embeddings.LayerNorm.bias", {E}};
            break;
        case Family::Gpt2:
            g.word = {"wte.weight", {c.vocab_size, E}};
            g.position = {"wpe.weight", {c.max_positions, E}};
            g.final_norm_w = {"ln_f.weight", {E}};
            g.final_norm_b = {"ln_f.bias", {E}};
            break;
        case Family::Llama:
            g.word = {"embed_tokens.weight", {c.vocab_size, E}};
            g.final_norm_w = {"norm.weight", {E}};
            break;
    }
    return g;
}

HeadParams masked_head_params(const ModelConfig& c) {
    const Index E = c.hidden_size, V = c.vocab_size;
    HeadParams h;
    std::string dense, norm;
    if (c.family == Family::DistilBert) {
        dense = "vocab_transform";
        norm = "vocab_layer_norm";
        h.decoder = {"vocab_projector.weight", {V, E}};
        h.bias_names = {"vocab_projector.bias"};
        h.activation = c.activation;
        h.names = "vocab_transform, vocab_layer_norm, vocab_projector";
        h.with_head = "DistilBertForMaskedLM";
    } else if (c.model_type == "roberta") {
        dense = "lm_head.dense";
        norm = "lm_head.layer_norm";
        h.decoder = {"lm_head.decoder.weight", {V, E}};
        h.bias_names = {"lm_head.bias", "lm_head.decoder.bias"};
        h.activation = ops::Activation::Gelu;  // RobertaLMHead: gelu whatever hidden_act says
        h.names = "lm_head.*";
        h.with_head = "RobertaForMaskedLM";
    } else {
        dense = "cls.predictions.transform.dense";
        norm = "cls.predictions.transform.LayerNorm";
        h.decoder = {"cls.predictions.decoder.weight", {V, E}};
        h.bias_names = {"cls.predictions.bias", "cls.predictions.decoder.bias"};
        h.activation = c.activation;  // BertPredictionHeadTransform: config.hidden_act
        h.names = "cls.predictions.*";
        h.with_head = "BertForMaskedLM";
    }
    h.dense_w = {dense + ".weight", {E, E}};
    h.dense_b = {dense + ".bias", {E}};
    h.norm_w = {norm + ".weight", {E}};
    h.norm_b = {norm + ".bias", {E}};
    h.bias = {"", {V}};
    for (Param* q : {&h.dense_w, &h.dense_b, &h.norm_w, &h.norm_b, &h.decoder, &h.bias})
        q->top_level = true;
    return h;
}

std::string describe_config(const ModelConfig& c) {
    std::string s = "hidden size " + std::to_string(c.hidden_size) + ", " +
                    std::to_string(c.num_heads) + " heads";
    if (c.num_kv_heads != c.num_heads) s += ", " + std::to_string(c.num_kv_heads) + " kv heads";
    s += ", head_dim " + std::to_string(c.head_dim) + ", intermediate " +
         std::to_string(c.intermediate_size) + ", vocab " + std::to_string(c.vocab_size);
    return s;
}

}  // namespace attnviz::models::detail
