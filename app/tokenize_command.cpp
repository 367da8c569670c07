// `attnviz tokenize`: the app's tokenizer (English, Chinese, emoji, mixed scripts) on one
// text, the tokens printed as a JSON array.
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "app/commands.h"
#include "app/model_commands.h"
#include "engine/errors.h"
#include "engine/text/tokenizer.h"

namespace attnviz::cli {

namespace {

struct TokenizeOptions {
    std::string text;
    bool lowercase = false;
    bool special_tokens = false;
    std::optional<std::string> model, text2;
};

void check(const TokenizeOptions& o) {
    if (o.model && (o.lowercase || o.special_tokens))
        throw UsageError(std::string(o.lowercase ? "--lowercase" : "--special-tokens") +
                         " is for the app's own tokenizer; a model folder's tokenizer decides");
    if (o.text2 && !o.model) throw UsageError("--text2 needs --model DIR");
}

int tokenize(const TokenizeOptions& o) {
    if (o.model) {
        tokenize_with_model(*o.model, o.text, o.text2, std::cout, std::cerr);
        return 0;
    }
    text::TokenizerOptions t;
    t.lowercase = o.lowercase;
    t.add_special_tokens = o.special_tokens;
    const auto tokens = text::tokenize(o.text, t);
    if (tokens.empty()) throw DataError("the text has no tokens (it is empty or only spaces)");
    std::printf("%s\n", text::tokens_to_json(tokens).c_str());
    return 0;
}

}  // namespace

void add_tokenize_command(CLI::App& app, CommandContext& ctx) {
    auto o = std::make_shared<TokenizeOptions>();
    CLI::App* sub = app.add_subcommand(
        "tokenize",
        "The tokens the app makes of a text, as a JSON array on stdout; with --model, the "
        "encoding a trained model's tokenizer gives.");
    sub->footer("Example:\n  attnviz tokenize --text \"我爱自然语言处理, and NLP!\"");
    add_text(*sub, "--text", &o->text, "TEXT", "the text (UTF-8)")->required();
    add_flag(*sub, "--lowercase", &o->lowercase, "lowercase before splitting");
    add_flag(*sub, "--special-tokens", &o->special_tokens, "add [CLS] and [SEP]");
    add_text(*sub, "--model", &o->model, "DIR",
             "a Hugging Face model folder: its tokenizer's encoding as JSON (ids, tokens, text, "
             "offsets, special, type_ids), exactly what the model sees");
    add_text(*sub, "--text2", &o->text2, "TEXT", "with --model: a second text (pair encoding)");
    ctx.on_parsed(
        sub, [o] { return tokenize(*o); }, [o] { check(*o); });
}

}  // namespace attnviz::cli
