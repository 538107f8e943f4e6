#pragma once
// The manual page and the bash completion of rankscope-cli, written from its CLI11 definition
// (every subcommand, option and positional argument), so neither can drift from the tool.
// The build runs `rankscope-cli --generate-docs man|bash-completion` and installs the output.

#include <CLI/CLI.hpp>
#include <string>

namespace rankscope::cli {

/// rankscope-cli.1 in man(7) roff: name, synopsis, description, the top-level options, each
/// subcommand with its arguments and options, exit status, environment and files.
std::string manPage(const CLI::App& app, const std::string& version);

/// A bash completion script for `complete -F`: subcommand names, each subcommand's options,
/// the values of options that take one of a fixed set (CLI::IsMember), and file names for
/// other values and positional arguments.
std::string bashCompletion(const CLI::App& app);

} // namespace rankscope::cli
