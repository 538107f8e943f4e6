#include "app/sessionoption.h"

#include <cstring>

namespace rankscope {

std::optional<QString> takeSessionOption(int& argc, char** argv)
{
    std::optional<QString> value;
    int out = 1;
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        if (std::strcmp(a, "--") == 0) {
            // Everything after "--" is a positional argument.
            for (; i < argc; ++i)
                argv[out++] = argv[i];
            break;
        }
        const char* name = std::strncmp(a, "--", 2) == 0 ? a + 2 : a[0] == '-' ? a + 1 : nullptr;
        if (name && std::strcmp(name, "session") == 0 && i + 1 < argc) {
            value = QString::fromLocal8Bit(argv[++i]);
            continue;
        }
        if (name && std::strncmp(name, "session=", 8) == 0) {
            value = QString::fromLocal8Bit(name + 8);
            continue;
        }
        argv[out++] = argv[i];
    }
    for (int i = out; i < argc; ++i)
        argv[i] = nullptr;
    argc = out;
    return value;
}

} // namespace rankscope
