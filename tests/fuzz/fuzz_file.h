// The fuzz input as a file (an anonymous memfd named by its /proc path), for
// code that opens files by name: the CLI's readers, model files.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace fuzz {

class MemFile {
public:
    MemFile(const uint8_t *data, size_t size) : fd_(memfd_create("fuzz", 0))
    {
        for (size_t done = 0; fd_ >= 0 && done < size;) {
            const ssize_t n = write(fd_, data + done, size - done);
            if (n <= 0)
                break;
            done += static_cast<size_t>(n);
        }
    }
    ~MemFile()
    {
        if (fd_ >= 0)
            close(fd_);
    }
    MemFile(const MemFile &) = delete;
    MemFile &operator=(const MemFile &) = delete;

    bool ok() const { return fd_ >= 0; }
    /// A path that opens the file from the start.
    std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

private:
    int fd_;
};

} // namespace fuzz
