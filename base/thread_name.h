// Names for the library's threads, so that top -H, perf and /proc show which
// threads of a process (an ffmpeg running several filter instances) are ours
// and what they do. Linux keeps 15 characters of a name.
#pragma once

namespace vmafhip {

/// Names the calling thread (Linux; elsewhere nothing happens).
void name_this_thread(const char *name);

} // namespace vmafhip
