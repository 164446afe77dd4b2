// The progress line of the vmafhip CLI on stderr: "\rframe N[/total] fps X",
// only on a terminal (a log or a pipe gets no carriage returns).
#pragma once

#include <chrono>

namespace cli {

class Progress {
public:
    /// @param enabled false: print nothing (--quiet, or stderr not a terminal)
    /// @param total   frames expected, or -1 when unknown
    Progress(bool enabled, long long total);

    /// Ends a line left open (a run that failed), so that the error message
    /// starts on a line of its own.
    ~Progress();

    /// `frames` frames are scored; redraws at most ten times a second.
    void update(unsigned frames);

    /// Draw the final count and end the line.
    void finish(unsigned frames);

private:
    void draw(unsigned frames);

    bool enabled_;
    bool open_ = false; ///< a line is drawn and not ended
    long long total_;
    std::chrono::steady_clock::time_point start_, last_;
};

} // namespace cli
