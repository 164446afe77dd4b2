#include "progress.h"

#include <cstdio>

namespace cli {

Progress::Progress(bool enabled, long long total)
    : enabled_(enabled), total_(total), start_(std::chrono::steady_clock::now()), last_(start_)
{
}

Progress::~Progress()
{
    if (open_)
        std::fputc('\n', stderr);
}

void Progress::update(unsigned frames)
{
    if (!enabled_)
        return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(100))
        return;
    last_ = now;
    draw(frames);
}

void Progress::finish(unsigned frames)
{
    if (!enabled_)
        return;
    draw(frames);
    std::fputc('\n', stderr);
    open_ = false;
}

void Progress::draw(unsigned frames)
{
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, "\rframe %u", frames);
    if (total_ >= 0)
        std::fprintf(stderr, "/%lld", total_);
    // "\033[K" clears what a longer previous line left.
    std::fprintf(stderr, " fps %.2f\033[K", s > 0 ? frames / s : 0.0);
    std::fflush(stderr);
    open_ = true;
}

} // namespace cli
