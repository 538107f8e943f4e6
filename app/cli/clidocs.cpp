#include "app/cli/clidocs.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace rankscope::cli {

namespace {

/// Options shown to the user: hidden ones (empty group) are left out, like in --help.
std::vector<const CLI::Option*> visibleOptions(const CLI::App& app)
{
    return app.get_options([](const CLI::Option* o) { return !o->get_group().empty(); });
}

std::vector<const CLI::App*> subcommands(const CLI::App& app)
{
    return app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); });
}

bool isFlag(const CLI::Option* o)
{
    return o->get_items_expected_max() == 0;
}

bool isPositionalOnly(const CLI::Option* o)
{
    return o->get_positional() && !o->nonpositional();
}

/// The names to type: -o, --output.
std::vector<std::string> switches(const CLI::Option* o)
{
    std::vector<std::string> out;
    for (const std::string& s : o->get_snames())
        out.push_back("-" + s);
    for (const std::string& l : o->get_lnames())
        out.push_back("--" + l);
    return out;
}

/// The values of a CLI::IsMember check ("TEXT:{a,b,c}" in the type name), else empty.
std::vector<std::string> choices(const CLI::Option* o)
{
    const std::string type = o->get_type_name();
    const size_t open = type.find(":{");
    const size_t close = type.find('}', open == std::string::npos ? 0 : open);
    std::vector<std::string> out;
    if (open == std::string::npos || close == std::string::npos) return out;
    std::stringstream list(type.substr(open + 2, close - open - 2));
    for (std::string item; std::getline(list, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

/// The placeholder of an option's value: its choices, else its type (TEXT, UINT, FLOAT...).
std::string valueName(const CLI::Option* o)
{
    const std::vector<std::string> values = choices(o);
    if (!values.empty()) {
        std::string out;
        for (const std::string& v : values)
            out += (out.empty() ? "" : "|") + v;
        return out;
    }
    const std::string type = o->get_type_name();
    return type.substr(0, type.find(':'));
}

/// Text for roff: backslashes escaped, no line starting with a control character.
std::string roff(const std::string& text)
{
    std::string out;
    bool lineStart = true;
    for (const char c : text) {
        if (lineStart && (c == '.' || c == '\'')) out += "\\&";
        if (c == '\\')
            out += "\\e";
        else
            out += c;
        lineStart = c == '\n';
    }
    return out;
}

/// An option name for roff: hyphens as \- (minus signs, so they can be copied and searched).
std::string roffSwitch(const std::string& name)
{
    std::string out;
    for (const char c : name)
        out += c == '-' ? std::string("\\-") : std::string(1, c);
    return out;
}

std::string words(const std::vector<std::string>& list, const char* separator = " ")
{
    std::string out;
    for (const std::string& w : list)
        out += (out.empty() ? "" : separator) + w;
    return out;
}

/// The options of a man page section; `withHelp` false leaves out -h, --help (said once, at
/// the top, rather than in every command).
void manOptions(std::ostream& out, const CLI::App& app, bool withHelp)
{
    for (const CLI::Option* o : visibleOptions(app)) {
        if (isPositionalOnly(o) || (!withHelp && o == app.get_help_ptr())) continue;
        out << ".TP\n";
        std::string names;
        for (const std::string& s : switches(o))
            names += (names.empty() ? "" : ", ") + ("\\fB" + roffSwitch(s) + "\\fR");
        out << names;
        if (!isFlag(o)) out << " \\fI" << roff(valueName(o)) << "\\fR";
        std::vector<std::string> notes;
        if (!o->get_default_str().empty()) notes.push_back("default: " + o->get_default_str());
        if (o->get_required()) notes.push_back("required");
        if (o->get_expected_max() > 1) notes.push_back("may be repeated");
        out << "\n" << roff(o->get_description());
        if (!notes.empty()) out << " (" << roff(words(notes, "; ")) << ")";
        out << "\n";
    }
}

/// One command's section (`path` is e.g. "scenario run"), then its subcommands'.
void manCommand(std::ostream& out, const CLI::App& cmd, const std::string& path)
{
    const std::vector<const CLI::App*> children = subcommands(cmd);
    out << ".SS \"" << roffSwitch(path) << "\"\n"
        << "\\fBrankscope\\-cli " << roffSwitch(path) << "\\fR"
        << (children.empty() ? "" : " \\fICOMMAND\\fR") << " [\\fIOPTIONS\\fR]";
    for (const CLI::Option* o : visibleOptions(cmd)) {
        if (!isPositionalOnly(o)) continue;
        const std::string name = "\\fI" + roff(o->get_name(true)) + "\\fR";
        out << " " << (o->get_required() ? name : "[" + name + "]");
    }
    out << "\n.PP\n" << roff(cmd.get_description()) << "\n";
    if (!children.empty()) {
        out << "Its commands:";
        for (const CLI::App* c : children)
            out << " \\fB" << roffSwitch(c->get_name()) << "\\fR";
        out << ".\n";
    }
    for (const CLI::Option* o : visibleOptions(cmd)) {
        if (!isPositionalOnly(o)) continue;
        out << ".TP\n\\fI" << roff(o->get_name(true)) << "\\fR\n"
            << roff(o->get_description()) << "\n";
    }
    manOptions(out, cmd, false);
    for (const CLI::App* c : children)
        manCommand(out, *c, path + " " + c->get_name());
}

/// Every command below `app` with its path ("scenario run"), depth first.
void commandPaths(const CLI::App& app, const std::string& path,
                  std::vector<std::pair<std::string, const CLI::App*>>& out)
{
    for (const CLI::App* c : subcommands(app)) {
        const std::string p = path.empty() ? c->get_name() : path + " " + c->get_name();
        out.emplace_back(p, c);
        commandPaths(*c, p, out);
    }
}

/// The completion of one command (`path` empty: the tool itself): what follows an option that
/// takes a value (its choices, file names for text, nothing for numbers), and the words to offer
/// otherwise (options and subcommand names).
void completeCommand(std::ostream& out, const CLI::App& cmd, const std::string& path)
{
    std::vector<std::string> offered;
    std::vector<std::string> files;
    std::vector<std::string> numbers;
    std::string choiceCases;
    for (const CLI::Option* o : visibleOptions(cmd)) {
        if (isPositionalOnly(o)) continue;
        const std::vector<std::string> names = switches(o);
        offered.insert(offered.end(), names.begin(), names.end());
        if (isFlag(o)) continue;
        const std::vector<std::string> values = choices(o);
        const std::string type = o->get_type_name().substr(0, o->get_type_name().find(':'));
        if (!values.empty())
            choiceCases += "                " + words(names, "|") +
                           ")\n"
                           "                    COMPREPLY=($(compgen -W '" +
                           words(values) +
                           "' -- \"$cur\"))\n                    return\n                    ;;\n";
        else if (type == "TEXT")
            files.push_back(words(names, "|"));
        else
            numbers.push_back(words(names, "|"));
    }
    for (const CLI::App* c : subcommands(cmd))
        offered.push_back(c->get_name());
    out << "        '" << path << "')\n";
    if (!choiceCases.empty() || !files.empty() || !numbers.empty()) {
        out << "            case $prev in\n" << choiceCases;
        if (!files.empty())
            out << "                " << words(files, "|") << ")\n"
                << "                    compopt -o filenames 2>/dev/null || true\n"
                << "                    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
                << "                    return\n"
                << "                    ;;\n";
        if (!numbers.empty())
            out << "                " << words(numbers, "|") << ")\n"
                << "                    COMPREPLY=()\n"
                << "                    return\n"
                << "                    ;;\n";
        out << "            esac\n";
    }
    out << "            opts='" << words(offered) << "'\n"
        << "            ;;\n";
}

} // namespace

std::string manPage(const CLI::App& app, const std::string& version)
{
    std::ostringstream out;
    out << ".\\\" Generated by `rankscope-cli --generate-docs man` from its command-line "
           "definition.\n"
        << ".TH RANKSCOPE\\-CLI 1 \"\" \"rankscope-cli " << roff(version)
        << "\" \"User Commands\"\n"
        << ".SH NAME\n"
        << "rankscope\\-cli \\- MPI trace analysis and what\\-if studies on the command line\n"
        << ".SH SYNOPSIS\n"
        << "\\fBrankscope\\-cli\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]\n.br\n"
        << "\\fBrankscope\\-cli\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR\n.br\n"
        << "\\fBrankscope\\-cli\\fR \\fB\\-\\-version\\fR\n"
        << ".SH DESCRIPTION\n";
    // The first line of the tool's description; the rest (exit codes) has its own section.
    const std::string description = app.get_description();
    out << roff(description.substr(0, description.find('\n'))) << "\n"
        << ".PP\n"
        << "The command-line twin of the Rankscope desktop application (\\fBrankscope\\fR): "
           "every analysis the application shows, for scripts and batch work. A \\fItrace\\fR "
           "is an OTF2 anchor file (traces.otf2) or the folder holding it. Every command "
           "takes \\fB\\-h\\fR, \\fB\\-\\-help\\fR.\n"
        << ".SH OPTIONS\n";
    manOptions(out, app, true);
    out << ".SH COMMANDS\n";
    for (const CLI::App* cmd : subcommands(app))
        manCommand(out, *cmd, cmd->get_name());
    out << ".SH EXIT STATUS\n"
        << ".TP\n0\nSuccess.\n"
        << ".TP\n1\nBad input: an unreadable trace or spec, or a failed computation.\n"
        << ".TP\n2\nBad usage: an unknown command or option, or a missing or invalid value.\n"
        << ".SH ENVIRONMENT\n"
        << ".TP\n\\fBRANKSCOPE_RESOURCES\\fR\n"
        << "A folder to take the bundled resources (networks/, demo/) from instead of the "
           "installed ones.\n"
        << ".SH FILES\n"
        << ".TP\n\\fI<prefix>/share/rankscope/networks/*.yaml\\fR\n"
        << "The bundled network specs, which \\fB\\-\\-network\\fR accepts by name (e.g. "
           "\\fBib\\-switch\\fR); found relative to the installed executable.\n"
        << ".TP\n\\fI<prefix>/share/rankscope/demo/\\fR\n"
        << "The demo session and its traces (\\fBrankscope \\-\\-demo\\fR).\n"
        << ".SH SEE ALSO\n"
        << "\\fBrankscope\\fR (the desktop application), \\fBotf2\\-print\\fR(1)\n";
    return out.str();
}

std::string bashCompletion(const CLI::App& app)
{
    std::vector<std::pair<std::string, const CLI::App*>> commands;
    commandPaths(app, "", commands);
    // A word is a command when it names a subcommand of the command found so far: "/info",
    // "scenario/run" (parent path, slash, name).
    std::vector<std::string> steps;
    for (const auto& [path, cmd] : commands) {
        const size_t last = path.rfind(' ');
        steps.push_back("'" + (last == std::string::npos ? "" : path.substr(0, last)) + "/" +
                        cmd->get_name() + "'");
    }

    std::ostringstream out;
    out << "# bash completion for rankscope-cli. Generated by `rankscope-cli --generate-docs "
           "bash-completion`\n# from its command-line definition; do not edit.\n"
        << "_rankscope_cli()\n{\n"
        << "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
        << "    local sub='' opts='' i\n"
        << "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
        << "        case \"$sub/${COMP_WORDS[i]}\" in\n"
        << "            " << words(steps, "|") << ")\n"
        << "                sub=${sub:+$sub }${COMP_WORDS[i]}\n"
        << "                ;;\n"
        << "        esac\n"
        << "    done\n"
        << "    case $sub in\n";
    completeCommand(out, app, "");
    for (const auto& [path, cmd] : commands)
        completeCommand(out, *cmd, path);
    out << "    esac\n"
        << "    if [[ $cur == -* || -z $sub ]]; then\n"
        << "        COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
        << "    else\n"
        << "        # A positional argument (a trace, a file) or a subcommand's name.\n"
        << "        compopt -o filenames 2>/dev/null || true\n"
        << "        COMPREPLY=($(compgen -W \"$opts\" -X '-*' -- \"$cur\") $(compgen -f -- "
           "\"$cur\"))\n"
        << "    fi\n"
        << "}\n"
        << "complete -F _rankscope_cli rankscope-cli\n";
    return out.str();
}

} // namespace rankscope::cli
