#include "engine/models/model_folder.h"

#include <algorithm>
#include <stdexcept>

#include "engine/io/json.h"

namespace attnviz::models {

namespace {

using io::json::quote;

template <class T, class F>
std::string json_array(const std::vector<T>& items, F&& item) {
    std::string out = "[";
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) out += ',';
        out += item(items[i]);
    }
    return out + "]";
}

std::string number(std::int64_t v) {
    return std::to_string(v);
}

}  // namespace

OpenedModel open_model_folder(const std::string& folder) {
    OpenedModel m{load_model(folder), text::HfTokenizer::from_folder(folder)};
    return m;
}

EncodedText encode_text(const OpenedModel& m, std::string_view text,
                        std::optional<std::string_view> text2) {
    if (text.empty()) throw std::invalid_argument("the text is empty");
    if (text2 && text2->empty()) throw std::invalid_argument("the second text is empty");
    EncodedText out;
    out.encoding = m.tokenizer.encode(text, text2, true);
    const auto L = static_cast<std::int64_t>(out.encoding.ids.size());
    if (L == 0) throw std::invalid_argument("the text gives no tokens");
    const std::int64_t max = m.model->info().max_positions;
    if (L > max)
        throw std::invalid_argument("the text is " + std::to_string(L) + " tokens, more than the " +
                                    std::to_string(max) + " positions of " +
                                    m.model->info().display_name);
    out.input.ids = out.encoding.ids;
    if (std::any_of(out.encoding.type_ids.begin(), out.encoding.type_ids.end(),
                    [](std::int64_t t) { return t != 0; }))
        out.input.token_type_ids = out.encoding.type_ids;
    return out;
}

std::string inspect_json(const OpenedModel& m) {
    const ModelInfo& i = m.model->info();
    std::string s = "{";
    auto field = [&](const char* key, const std::string& value) {
        if (s.size() > 1) s += ',';
        s += quote(key) + ":" + value;
    };
    field("model_type", quote(i.model_type));
    field("architecture", quote(i.display_name));
    field("architectures", i.architecture.empty() ? "[]" : "[" + quote(i.architecture) + "]");
    field("folder", quote(i.folder));
    field("layers", number(i.num_layers));
    field("heads", number(i.num_heads));
    field("kv_heads", number(i.num_kv_heads));
    field("head_dim", number(i.head_dim));
    field("hidden_size", number(i.hidden_size));
    field("intermediate_size", number(i.intermediate_size));
    field("vocab_size", number(i.vocab_size));
    field("max_positions", number(i.max_positions));
    field("dtype", quote(i.dtype));
    field("parameters", std::to_string(i.parameter_count));
    field("causal", i.causal ? "true" : "false");
    field("position_encoding", quote(i.position_encoding));
    field("tokenizer", quote(m.tokenizer.kind()));
    field("tokenizer_vocab_size", number(m.tokenizer.vocab_size()));
    std::string special = "{";
    for (const auto& [token, id] : m.tokenizer.special_tokens()) {
        if (special.size() > 1) special += ',';
        special += quote(token) + ":" + number(id);
    }
    field("special_tokens", special + "}");
    return s + "}";
}

std::string encoding_json(const text::Encoding& e) {
    std::string s = "{\"ids\":" + json_array(e.ids, number);
    s += ",\"tokens\":" + json_array(e.tokens, [](const std::string& t) { return quote(t); });
    s += ",\"text\":" + json_array(e.text, [](const std::string& t) { return quote(t); });
    s +=
        ",\"offsets\":" + json_array(e.offsets, [](const std::pair<std::int64_t, std::int64_t>& o) {
            return "[" + number(o.first) + "," + number(o.second) + "]";
        });
    s += ",\"special\":" + json_array(e.special, [](std::uint8_t v) {
             return v ? std::string("true") : std::string("false");
         });
    s += ",\"type_ids\":" + json_array(e.type_ids, number);
    return s + "}";
}

}  // namespace attnviz::models
