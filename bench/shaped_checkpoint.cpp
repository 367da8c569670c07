#include "shaped_checkpoint.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace attnviz::bench {

namespace {
struct TensorSpec {
    QString name;
    std::vector<std::int64_t> shape;
    bool ones = false;  ///< a norm's weight: 1, as a fresh model has
};

std::int64_t numel(const TensorSpec& t) {
    std::int64_t n = 1;
    for (const std::int64_t d : t.shape)
        n *= d;
    return n;
}

std::uint16_t to_bf16(float f) {  // round to nearest even (the values are finite)
    std::uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return std::uint16_t((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

/// Writes `tensors` as one safetensors file, `bf16` or F32.  The values come from a pool of
/// 4M draws of N(0, 0.02), each tensor read from it at random offsets: written at disk speed.
QString write_safetensors_file(const QString& path, const std::vector<TensorSpec>& tensors,
                               bool bf16) {
    const std::int64_t width = bf16 ? 2 : 4;
    QJsonObject header;
    header.insert(QStringLiteral("__metadata__"),
                  QJsonObject{{QStringLiteral("format"), QStringLiteral("pt")}});
    std::int64_t at = 0;
    for (const TensorSpec& t : tensors) {
        QJsonArray shape;
        for (const std::int64_t d : t.shape)
            shape.append(qint64(d));
        const std::int64_t bytes = numel(t) * width;
        header.insert(
            t.name,
            QJsonObject{
                {QStringLiteral("dtype"), bf16 ? QStringLiteral("BF16") : QStringLiteral("F32")},
                {QStringLiteral("shape"), shape},
                {QStringLiteral("data_offsets"), QJsonArray{qint64(at), qint64(at + bytes)}}});
        at += bytes;
    }
    QByteArray text = QJsonDocument(header).toJson(QJsonDocument::Compact);
    text.append(QByteArray((8 - text.size() % 8) % 8, ' '));

    constexpr std::size_t kPool = std::size_t(1) << 22;
    std::mt19937_64 rng(0);
    std::normal_distribution<float> normal(0.0f, 0.02f);
    std::vector<float> pool(kPool);
    for (float& v : pool)
        v = normal(rng);
    QByteArray pool_bytes(qsizetype(kPool) * width, Qt::Uninitialized);
    if (bf16) {
        auto* out = reinterpret_cast<std::uint16_t*>(pool_bytes.data());
        for (std::size_t i = 0; i < kPool; ++i)
            out[i] = to_bf16(pool[i]);
    } else {
        std::memcpy(pool_bytes.data(), pool.data(), kPool * 4);
    }
    QByteArray ones(qsizetype(1) << 16, Qt::Uninitialized);
    for (qsizetype i = 0; i < ones.size() / width; ++i) {
        if (bf16) {
            const std::uint16_t one = to_bf16(1.0f);
            std::memcpy(ones.data() + i * 2, &one, 2);
        } else {
            const float one = 1.0f;
            std::memcpy(ones.data() + i * 4, &one, 4);
        }
    }

    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
    const quint64 length = quint64(text.size());
    char le[8];
    for (int i = 0; i < 8; ++i)
        le[i] = char((length >> (8 * i)) & 0xff);
    f.write(le, 8);
    f.write(text);
    std::uniform_int_distribution<std::size_t> offset(0, kPool - 1);
    for (const TensorSpec& t : tensors) {
        std::int64_t left = numel(t) * width;
        while (left > 0) {
            qint64 wrote;
            if (t.ones) {
                const qint64 n = std::min<qint64>(left, ones.size());
                wrote = f.write(ones.constData(), n);
            } else {
                const std::size_t start = offset(rng);
                const qint64 n = std::min<qint64>(left, qint64(kPool - start) * width);
                wrote = f.write(pool_bytes.constData() + qint64(start) * width, n);
            }
            if (wrote <= 0) return QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
            left -= wrote;
        }
    }
    return f.flush() ? QString() : QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
}

QString write_json(const QString& path, const QJsonObject& json) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        f.write(QJsonDocument(json).toJson()) < 0)
        return QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
    return {};
}

QString copy_files(const QString& from, const QString& to, const QStringList& names) {
    for (const QString& name : names) {
        const QString target = to + QLatin1Char('/') + name;
        QFile::remove(target);
        if (!QFile::copy(from + QLatin1Char('/') + name, target))
            return QStringLiteral("cannot copy %1/%2 to %3").arg(from, name, to);
    }
    return {};
}
}  // namespace

QString write_qwen2_0_5b_shaped(const QString& folder, const QString& source_dir) {
    constexpr std::int64_t E = 896, I = 4864, H = 14, KV = 2, d = 64, V = 151936, layers = 24;
    if (!QDir().mkpath(folder)) return QStringLiteral("cannot make %1").arg(folder);
    std::vector<TensorSpec> t{{QStringLiteral("model.embed_tokens.weight"), {V, E}}};
    for (int i = 0; i < layers; ++i) {
        const QString p = QStringLiteral("model.layers.%1.").arg(i);
        t.push_back({p + QStringLiteral("self_attn.q_proj.weight"), {H * d, E}});
        t.push_back({p + QStringLiteral("self_attn.q_proj.bias"), {H * d}});
        t.push_back({p + QStringLiteral("self_attn.k_proj.weight"), {KV * d, E}});
        t.push_back({p + QStringLiteral("self_attn.k_proj.bias"), {KV * d}});
        t.push_back({p + QStringLiteral("self_attn.v_proj.weight"), {KV * d, E}});
        t.push_back({p + QStringLiteral("self_attn.v_proj.bias"), {KV * d}});
        t.push_back({p + QStringLiteral("self_attn.o_proj.weight"), {E, H * d}});
        t.push_back({p + QStringLiteral("mlp.gate_proj.weight"), {I, E}});
        t.push_back({p + QStringLiteral("mlp.up_proj.weight"), {I, E}});
        t.push_back({p + QStringLiteral("mlp.down_proj.weight"), {E, I}});
        t.push_back({p + QStringLiteral("input_layernorm.weight"), {E}, true});
        t.push_back({p + QStringLiteral("post_attention_layernorm.weight"), {E}, true});
    }
    t.push_back({QStringLiteral("model.norm.weight"), {E}, true});
    QString error = write_safetensors_file(folder + QStringLiteral("/model.safetensors"), t, true);
    if (!error.isEmpty()) return error;
    const QJsonObject config{
        {QStringLiteral("architectures"), QJsonArray{QStringLiteral("Qwen2ForCausalLM")}},
        {QStringLiteral("attention_dropout"), 0.0},
        {QStringLiteral("bos_token_id"), 151643},
        {QStringLiteral("eos_token_id"), 151643},
        {QStringLiteral("hidden_act"), QStringLiteral("silu")},
        {QStringLiteral("hidden_size"), qint64(E)},
        {QStringLiteral("initializer_range"), 0.02},
        {QStringLiteral("intermediate_size"), qint64(I)},
        {QStringLiteral("max_position_embeddings"), 32768},
        {QStringLiteral("max_window_layers"), 21},
        {QStringLiteral("model_type"), QStringLiteral("qwen2")},
        {QStringLiteral("num_attention_heads"), qint64(H)},
        {QStringLiteral("num_hidden_layers"), qint64(layers)},
        {QStringLiteral("num_key_value_heads"), qint64(KV)},
        {QStringLiteral("rms_norm_eps"), 1e-6},
        {QStringLiteral("rope_scaling"), QJsonValue::Null},
        {QStringLiteral("rope_theta"), 1000000.0},
        {QStringLiteral("sliding_window"), 32768},
        {QStringLiteral("tie_word_embeddings"), true},
        {QStringLiteral("torch_dtype"), QStringLiteral("bfloat16")},
        {QStringLiteral("use_cache"), true},
        {QStringLiteral("use_sliding_window"), false},
        {QStringLiteral("vocab_size"), qint64(V)}};
    error = write_json(folder + QStringLiteral("/config.json"), config);
    if (!error.isEmpty()) return error;
    return copy_files(source_dir + QStringLiteral("/tests/data/tokenizers/qwen2"), folder,
                      {QStringLiteral("tokenizer.json"), QStringLiteral("tokenizer_config.json")});
}

QString write_gpt2_small_shaped(const QString& folder, const QString& source_dir) {
    constexpr std::int64_t E = 768, V = 50257, P = 1024, layers = 12;
    if (!QDir().mkpath(folder)) return QStringLiteral("cannot make %1").arg(folder);
    std::vector<TensorSpec> t{{QStringLiteral("transformer.wte.weight"), {V, E}},
                              {QStringLiteral("transformer.wpe.weight"), {P, E}}};
    for (int i = 0; i < layers; ++i) {
        const QString p = QStringLiteral("transformer.h.%1.").arg(i);
        for (const auto& [name, in, out] : {std::tuple{QStringLiteral("attn.c_attn"), E, 3 * E},
                                            std::tuple{QStringLiteral("attn.c_proj"), E, E},
                                            std::tuple{QStringLiteral("mlp.c_fc"), E, 4 * E},
                                            std::tuple{QStringLiteral("mlp.c_proj"), 4 * E, E}}) {
            t.push_back({p + name + QStringLiteral(".weight"), {in, out}});  // Conv1D: [in, out]
            t.push_back({p + name + QStringLiteral(".bias"), {out}});
        }
        for (const QString& n : {QStringLiteral("ln_1"), QStringLiteral("ln_2")}) {
            t.push_back({p + n + QStringLiteral(".weight"), {E}, true});
            t.push_back({p + n + QStringLiteral(".bias"), {E}});
        }
    }
    t.push_back({QStringLiteral("transformer.ln_f.weight"), {E}, true});
    t.push_back({QStringLiteral("transformer.ln_f.bias"), {E}});
    const QString error =
        write_safetensors_file(folder + QStringLiteral("/model.safetensors"), t, false);
    if (!error.isEmpty()) return error;
    // tests/data/tokenizers/gpt2/config.json is GPT-2 small's own.
    return copy_files(source_dir + QStringLiteral("/tests/data/tokenizers/gpt2"), folder,
                      {QStringLiteral("config.json"), QStringLiteral("vocab.json"),
                       QStringLiteral("merges.txt"), QStringLiteral("tokenizer_config.json")});
}

}  // namespace attnviz::bench
