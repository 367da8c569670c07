#include "app/cli_docs.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>
#include <vector>

#include "app/command_line.h"

namespace attnviz::cli {

namespace {

// ---- The tree ------------------------------------------------------------------------------

bool is_positional(const CLI::Option* opt) {
    return opt->get_lnames().empty() && opt->get_snames().empty();
}

/// "-o, --out" (every name), or the positional's name.
std::vector<std::string> names_of(const CLI::Option* opt) {
    if (is_positional(opt)) return {opt->get_name()};
    std::vector<std::string> names;
    for (const std::string& s : opt->get_snames())
        names.push_back("-" + s);
    for (const std::string& l : opt->get_lnames())
        names.push_back("--" + l);
    return names;
}

bool takes_value(const CLI::Option* opt) {
    return opt->get_items_expected_max() != 0;
}

/// One option as the documents show it.
struct DocOption {
    std::vector<std::string> names;  ///< names_of
    bool positional = false;
    std::string placeholder;  ///< the value's, e.g. "FILE"; "" for a flag or a positional
    std::string description;  ///< as --help says it, with range and default
};

/// Options of one group, in the order they were declared.
struct DocGroup {
    std::string name;
    std::vector<DocOption> options;
};

/// The root or one subcommand.
struct DocCommand {
    const CLI::App* app = nullptr;
    std::vector<DocGroup> groups;  ///< in the order their first option was declared
};

/// The tree as the man page and the Markdown reference walk it: the root, then each
/// subcommand in the order --help lists them; hidden options (no group) left out.
std::vector<DocCommand> document_tree(const CLI::App& root) {
    std::vector<const CLI::App*> apps{&root};
    for (const CLI::App* sub : root.get_subcommands({}))
        apps.push_back(sub);
    std::vector<DocCommand> tree;
    for (const CLI::App* app : apps) {
        DocCommand& command = tree.emplace_back(DocCommand{app, {}});
        for (const CLI::Option* opt : app->get_options()) {
            const std::string& g = opt->get_group();
            if (g.empty()) continue;
            auto it = std::find_if(command.groups.begin(), command.groups.end(),
                                   [&](const DocGroup& e) { return e.name == g; });
            if (it == command.groups.end()) it = command.groups.insert(it, DocGroup{g, {}});
            DocOption o{names_of(opt), is_positional(opt), "", option_description(opt)};
            if (takes_value(opt) && !o.positional) o.placeholder = opt->get_option_text();
            it->options.push_back(std::move(o));
        }
    }
    return tree;
}

/// Blocks of a help text (a footer): lines laid out already (they start with a space:
/// examples) kept as they are, without their first two spaces; the other lines, where an
/// empty one parts paragraphs.
struct TextBlock {
    bool literal = false;
    std::vector<std::string> lines;
};

std::vector<TextBlock> text_blocks(const std::string& text) {
    std::vector<TextBlock> blocks;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        const bool literal = !line.empty() && line[0] == ' ';
        if (blocks.empty() || blocks.back().literal != literal) blocks.push_back({literal, {}});
        if (literal) line = line.substr(std::min<std::size_t>(line.find_first_not_of(' '), 2));
        blocks.back().lines.push_back(line);
    }
    return blocks;
}

/// DocText::environment as (variable, what it does) pairs.
std::vector<std::pair<std::string, std::string>> environment_entries(const std::string& text) {
    std::vector<std::pair<std::string, std::string>> entries;
    std::istringstream env(text);
    for (std::string entry; std::getline(env, entry);) {
        entry.erase(0, entry.find_first_not_of(' '));
        const auto sep = entry.find(": ");
        if (sep != std::string::npos)
            entries.emplace_back(entry.substr(0, sep), entry.substr(sep + 2));
    }
    return entries;
}

// ---- roff -----------------------------------------------------------------------------------

/// Text for roff: backslashes escaped, a '-' that starts a word (an option's name) or
/// follows one as a minus sign, a line never starting with a control character.
std::string roff(const std::string& text) {
    std::string out;
    for (std::size_t k = 0; k < text.size(); ++k) {
        const char c = text[k];
        if (c == '\\') {
            out += "\\e";
        } else if (c == '-' && (k == 0 || text[k - 1] == ' ' || text[k - 1] == '-' ||
                                text[k - 1] == '(' || text[k - 1] == '[' || text[k - 1] == '|' ||
                                text[k - 1] == '\n' || text[k - 1] == '"')) {
            out += "\\-";
        } else if (static_cast<unsigned char>(c) >= 0x80) {
            // Outside ASCII, a character by its code point: the page is ASCII, whatever the
            // reader's locale and groff's input encoding.
            const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
            const int extra = byte(k) >= 0xf0 ? 3 : byte(k) >= 0xe0 ? 2 : 1;
            char32_t cp = byte(k) & (0x3f >> extra);
            for (int i = 1; i <= extra && k + 1 < text.size(); ++i)
                cp = (cp << 6) | (byte(++k) & 0x3f);
            char buf[16];
            std::snprintf(buf, sizeof buf, "\\[u%04X]", static_cast<unsigned>(cp));
            out += buf;
        } else {
            if ((c == '.' || c == '\'') && (k == 0 || text[k - 1] == '\n')) out += "\\&";
            out += c;
        }
    }
    return out;
}

/// Every '-' as a minus sign: option names.
std::string roff_name(const std::string& name) {
    std::string out;
    for (const char c : name)
        out += c == '-' ? std::string("\\-") : c == '\\' ? std::string("\\e") : std::string(1, c);
    return out;
}

/// A help text (a footer) as roff paragraphs, its examples as they are laid out.
std::string roff_paragraphs(const std::string& text) {
    std::ostringstream out;
    for (const TextBlock& block : text_blocks(text)) {
        if (block.literal) out << ".PP\n.RS 2\n.nf\n";
        for (const std::string& line : block.lines)
            out << (line.empty() && !block.literal ? ".PP" : roff(line)) << "\n";
        if (block.literal) out << ".fi\n.RE\n";
    }
    return out.str();
}

void man_options(std::ostream& out, const DocCommand& command, const std::string& heading_macro) {
    for (const DocGroup& group : command.groups) {
        out << heading_macro << " \"" << roff(group.name) << "\"\n";
        for (const DocOption& opt : group.options) {
            out << ".TP\n";
            for (std::size_t k = 0; k < opt.names.size(); ++k)
                out << (k ? ", " : "")
                    << (opt.positional ? "\\fI" + roff_name(opt.names[k]) + "\\fR"
                                       : "\\fB" + roff_name(opt.names[k]) + "\\fR");
            if (!opt.placeholder.empty()) {
                // A long list of choices may break after any '|' (\\: is a break point).
                std::string text = roff_name(opt.placeholder);
                for (std::size_t at = text.find('|'); at != std::string::npos;
                     at = text.find('|', at + 3))
                    text.insert(at + 1, "\\:");
                out << " \\fI" << text << "\\fR";
            }
            out << "\n" << roff(opt.description) << "\n";
        }
    }
}

// ---- Markdown -------------------------------------------------------------------------------

/// Text for Markdown: the characters that would start markup escaped.  A bracket starts a
/// link only with "](" after it, so "[N,L,E]" stays as it reads.
std::string markdown(const std::string& text) {
    std::string out;
    for (std::size_t k = 0; k < text.size(); ++k) {
        const char c = text[k];
        if (c == '\\' || c == '`' || c == '*' || c == '<' ||
            (c == ']' && k + 1 < text.size() && text[k + 1] == '('))
            out += '\\';
        out += c;
    }
    return out;
}

/// The anchor GitHub gives a heading: "attnviz export" is #attnviz-export (the names are
/// lower case already).
std::string heading_anchor(std::string heading) {
    std::replace(heading.begin(), heading.end(), ' ', '-');
    return heading;
}

void markdown_blocks(std::ostream& out, const std::string& text) {
    for (const TextBlock& block : text_blocks(text)) {
        if (block.literal) out << "```text\n";
        for (const std::string& line : block.lines)
            out << (block.literal ? line : markdown(line)) << "\n";
        out << (block.literal ? "```\n\n" : "\n");
    }
}

void markdown_options(std::ostream& out, const DocCommand& command) {
    for (const DocGroup& group : command.groups) {
        out << "### " << markdown(group.name) << "\n\n";
        for (const DocOption& opt : group.options) {
            std::string names;
            for (const std::string& name : opt.names)
                names += (names.empty() ? "" : ", ") + name;
            out << "- `" << names << (opt.placeholder.empty() ? "" : " " + opt.placeholder)
                << "`: " << markdown(opt.description) << "\n";
        }
        out << "\n";
    }
}

// ---- bash -----------------------------------------------------------------------------------

/// What the value of an option completes to.
enum class ValueKind { Nothing, Words, Files, Folders };

/// A placeholder's meaning: "a|b|c" are words (a part with a ':' or '[' names a form, not a
/// word: "head:K" is left out, "steps[:K]" is "steps"), "DIR" folders, "FILE", "PATH" or a
/// name with a suffix ("Q.npy") files.
ValueKind value_kind(const std::string& placeholder, std::vector<std::string>* words) {
    if (placeholder.find('|') != std::string::npos) {
        std::stringstream in(placeholder);
        std::string w;
        while (std::getline(in, w, '|')) {
            w = w.substr(0, w.find('['));
            if (!w.empty() && w.find(':') == std::string::npos) words->push_back(w);
        }
        return ValueKind::Words;
    }
    if (placeholder == "DIR") return ValueKind::Folders;
    if (placeholder.find("FILE") != std::string::npos || placeholder == "PATH")
        return ValueKind::Files;
    const auto dot = placeholder.rfind('.');
    if (dot != std::string::npos && dot + 1 < placeholder.size() &&
        std::all_of(placeholder.begin() + static_cast<std::ptrdiff_t>(dot) + 1, placeholder.end(),
                    [](char c) { return std::islower(static_cast<unsigned char>(c)); }))
        return ValueKind::Files;
    return ValueKind::Nothing;
}

/// A word bash may see unquoted inside single quotes: option names and choices are.
bool plain_word(const std::string& w) {
    return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    });
}

std::string join(const std::vector<std::string>& words) {
    std::string out;
    for (const std::string& w : words)
        if (plain_word(w)) out += (out.empty() ? "" : " ") + w;
    return out;
}

/// One `case` arm per subcommand (and "" for the root): its options, and what follows
/// each option that takes a value.
void bash_arm(std::ostream& out, const CLI::App& app, const std::string& label,
              const std::string& qt_group) {
    std::vector<std::string> options;
    std::vector<std::string> words_arms, files, folders, nothing;
    std::ostringstream words_out;
    for (const CLI::Option* opt : app.get_options()) {
        if (opt->get_group().empty() || is_positional(opt)) continue;
        std::vector<std::string> names = names_of(opt);
        // Qt's options in Qt's own spelling too.
        if (opt->get_group() == qt_group && !opt->get_lnames().empty())
            names.push_back("-" + opt->get_lnames().front());
        options.insert(options.end(), names.begin(), names.end());
        if (!takes_value(opt)) continue;
        std::vector<std::string> words;
        const std::string pattern = join(names);
        std::string alternatives = pattern;
        std::replace(alternatives.begin(), alternatives.end(), ' ', '|');
        switch (value_kind(opt->get_option_text(), &words)) {
            case ValueKind::Words:
                words_out << "                " << alternatives << ") words='" << join(words)
                          << "' ;;\n";
                break;
            case ValueKind::Files:
                files.push_back(alternatives);
                break;
            case ValueKind::Folders:
                folders.push_back(alternatives);
                break;
            case ValueKind::Nothing:
                nothing.push_back(alternatives);
                break;
        }
    }
    const auto arm = [&](const std::vector<std::string>& patterns, const char* action) {
        if (patterns.empty()) return;
        std::string alternatives;
        for (const std::string& p : patterns)
            alternatives += (alternatives.empty() ? "" : "|") + p;
        out << "                " << alternatives << ") " << action << " ;;\n";
    };
    out << "        " << label << ")\n";
    out << "            options='" << join(options) << "'\n";
    out << "            case $prev in\n";
    out << words_out.str();
    arm(files, "kind=files");
    arm(folders, "kind=folders");
    arm(nothing, "kind=nothing");
    out << "            esac\n";
    out << "            ;;\n";
}

}  // namespace

std::string man_page(const CLI::App& root, const DocText& text) {
    std::ostringstream out;
    const std::string description = root.get_description();
    const auto colon = description.find(": ");
    const std::string summary = description.substr(colon + 2, description.find(". ") - colon - 2);
    out << ".\\\" Generated from attnviz's command line by `attnviz --man`: edit app/, not this.\n"
        << ".TH ATTNVIZ 1 \"\" \"attnviz " << roff(text.version) << "\" \"User Commands\"\n"
        << ".nh\n"
        << ".SH NAME\n"
        << "attnviz \\- " << roff(summary) << "\n"
        << ".SH SYNOPSIS\n"
        << ".B attnviz\n"
        << "[\\fIOPTIONS\\fR] [\\fIPATH\\fR]\n"
        << ".br\n"
        << ".B attnviz\n"
        << "\\fISUBCOMMAND\\fR [\\fIOPTIONS\\fR]\n"
        << ".SH DESCRIPTION\n"
        << roff(description.substr(description.find(". ") + 2)) << "\n"
        << ".PP\n"
        << roff(text.memory) << "\n"
        << ".SH OPTIONS\n";
    const std::vector<DocCommand> tree = document_tree(root);
    man_options(out, tree.front(), ".SS");
    out << ".SH COMMANDS\n";
    for (auto command = tree.begin() + 1; command != tree.end(); ++command) {
        const CLI::App& sub = *command->app;
        out << ".SS \"attnviz " << roff(sub.get_name()) << " [OPTIONS]\"\n"
            << roff(sub.get_description()) << "\n";
        if (!sub.get_footer().empty()) out << ".PP\n" << roff_paragraphs(sub.get_footer());
        man_options(out, *command, ".PP\n.B");
    }
    out << ".SH \"EXIT STATUS\"\n" << roff(text.exit_status) << "\n";
    out << ".SH ENVIRONMENT\n";
    for (const auto& [name, what] : environment_entries(text.environment))
        out << ".TP\n.B " << name << "\n" << roff(what) << "\n";
    out << ".SH \"SEE ALSO\"\n"
        << "The README of AttnViz, and Qt's documentation of QApplication for its options.\n";
    return out.str();
}

std::string markdown_reference(const CLI::App& root, const DocText& text) {
    const std::vector<DocCommand> tree = document_tree(root);
    std::vector<std::string> headings;
    for (const DocCommand& command : tree)
        headings.push_back(command.app == &root ? "attnviz" : "attnviz " + command.app->get_name());
    std::ostringstream out;
    out << "<!-- Generated from attnviz's command line by `attnviz --markdown`: edit app/ and "
           "ui/cli/, not this.  The test docs_cli_reference fails until it is written again "
           "(attnviz --markdown > docs/cli.md). -->\n\n"
        << "# Command-line reference\n\n"
        << markdown(root.get_description()) << "\n\n"
        << markdown(text.memory) << "\n\n";
    for (std::size_t k = 0; k < headings.size(); ++k)
        out << (k ? " · " : "") << "[" << headings[k] << "](#" << heading_anchor(headings[k])
            << ")";
    out << " · [Exit status](#exit-status) · [Environment](#environment)\n\n";
    for (std::size_t k = 0; k < tree.size(); ++k) {
        const CLI::App& app = *tree[k].app;
        out << "## " << headings[k] << "\n\n";
        if (k == 0) {  // its description opens the page
            out << "```text\nattnviz [OPTIONS] [PATH]\nattnviz SUBCOMMAND [OPTIONS]\n```\n\n";
        } else {
            out << markdown(app.get_description()) << "\n\n";
            markdown_blocks(out, app.get_footer());
        }
        markdown_options(out, tree[k]);
    }
    out << "## Exit status\n\n" << markdown(text.exit_status) << "\n\n## Environment\n\n";
    for (const auto& [name, what] : environment_entries(text.environment))
        out << "- `" << name << "`: " << markdown(what) << "\n";
    return out.str();
}

std::string bash_completion(const CLI::App& root, const DocText& text) {
    std::vector<std::string> commands;
    for (const CLI::App* sub : root.get_subcommands({}))
        commands.push_back(sub->get_name());
    std::ostringstream out;
    out << "# bash completion for attnviz, generated from its command line by\n"
        << "# `attnviz --completion bash`: edit app/, not this.\n"
        << "_attnviz() {\n"
        << "    local cur=${COMP_WORDS[COMP_CWORD]} prev='' command='' options='' words='' "
           "kind='' i\n"
        << "    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
        << "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
        << "        case ${COMP_WORDS[i]} in\n"
        << "            " <<
        [&] {
            std::string alternatives;
            for (const std::string& c : commands)
                alternatives += (alternatives.empty() ? "" : "|") + c;
            return alternatives;
        }()
        << ")\n"
        << "                command=${COMP_WORDS[i]}\n"
        << "                break\n"
        << "                ;;\n"
        << "        esac\n"
        << "    done\n"
        << "    case $command in\n";
    bash_arm(out, root, "''", text.qt_group);
    for (const CLI::App* sub : root.get_subcommands({}))
        bash_arm(out, *sub, sub->get_name(), text.qt_group);
    out << "    esac\n"
        << "    COMPREPLY=()\n"
        << "    if [[ -n $words ]]; then\n"
        << "        mapfile -t COMPREPLY < <(compgen -W \"$words\" -- \"$cur\")\n"
        << "    elif [[ $kind == files ]]; then\n"
        << "        mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
        << "    elif [[ $kind == folders ]]; then\n"
        << "        mapfile -t COMPREPLY < <(compgen -d -- \"$cur\")\n"
        << "    elif [[ $kind == nothing ]]; then\n"
        << "        return 0\n"
        << "    elif [[ $cur == -* ]]; then\n"
        << "        mapfile -t COMPREPLY < <(compgen -W \"$options\" -- \"$cur\")\n"
        << "    elif [[ -z $command ]]; then\n"
        << "        mapfile -t COMPREPLY < <(compgen -W '" << join(commands)
        << "' -- \"$cur\"; compgen -f -- \"$cur\")\n"
        << "    fi\n"
        << "    return 0\n"
        << "}\n"
        << "complete -o filenames -F _attnviz attnviz\n";
    return out.str();
}

}  // namespace attnviz::cli
