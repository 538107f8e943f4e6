#pragma once
// `rankscope-cli generate --pattern P --ranks N --iterations I [--seed S] -o DIR`: writes a
// synthetic trace with a known structure and scaling behaviour as an OTF2 archive.

#include "app/cli/clicommon.h"
#include "model/generator/tracegenerator.h"

#include <CLI/CLI.hpp>

namespace rankscope::cli {

class GenerateCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    GeneratorOptions options_;
    std::vector<std::string> regionSpecs_; ///< NAME=TIME_NS:LAW, one per compute region
    std::string messageLaw_;
    double messageBytes_ = 0;
    std::string output_;
    bool quiet_ = false;
    bool force_ = false;
};

} // namespace rankscope::cli
