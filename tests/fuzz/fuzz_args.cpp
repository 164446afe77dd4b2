// The CLI's command line: the input split at NUL bytes into argv.
#include <cstdint>
#include <string>
#include <vector>

#include "tools/vmafhip/args.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    std::vector<std::string> words{"vmafhip"};
    std::string cur;
    for (size_t i = 0; i < size && words.size() < 64; i++) {
        if (data[i]) {
            cur.push_back(static_cast<char>(data[i]));
        } else {
            words.push_back(cur);
            cur.clear();
        }
    }
    if (!cur.empty())
        words.push_back(cur);
    std::vector<const char *> argv;
    for (const std::string &w : words)
        argv.push_back(w.c_str());
    argv.push_back(nullptr);
    cli::Options o;
    cli::Action action;
    std::string err;
    cli::parse_args(static_cast<int>(words.size()), argv.data(), &o, &action, &err);
    return 0;
}
