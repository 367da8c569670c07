// `attnviz tokenize`: the app's tokenizer (English, Chinese, emoji, mixed scripts) on one
// text, the tokens printed as a JSON array.
#include <cstdio>
#include <memory>

#include "app/commands.h"
#include "engine/errors.h"
#include "engine/text/tokenizer.h"

namespace attnviz::cli {

namespace {

struct TokenizeOptions {
    std::string text;
    bool lowercase = false;
    bool special_tokens = false;
};

int tokenize(const TokenizeOptions& o) {
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
        "tokenize", "The tokens the app makes of a text, as a JSON array on stdout.");
    sub->footer("Example: attnviz tokenize --text \"我爱自然语言处理, and NLP!\"");
    add_text(*sub, "--text", &o->text, "TEXT", "the text (UTF-8)")->required();
    add_flag(*sub, "--lowercase", &o->lowercase, "lowercase before splitting");
    add_flag(*sub, "--special-tokens", &o->special_tokens, "add [CLS] and [SEP]");
    ctx.on_parsed(sub, [o] { return tokenize(*o); });
}

}  // namespace attnviz::cli
