// Host-side arithmetic of a kernel's launch and workspace: grids that cover
// a range, and the sections of a device workspace.
#pragma once

#include <stddef.h>

namespace vmafhip {

/// Workspace sections start at multiples of this many bytes: any element
/// type and the widest vector load are aligned, and no two sections share a
/// cache line or a memory transaction.
constexpr size_t WORKSPACE_ALIGN = 256;

/// bytes rounded up to a whole number of WORKSPACE_ALIGN.
constexpr size_t workspace_align(size_t bytes)
{
    return (bytes + WORKSPACE_ALIGN - 1) / WORKSPACE_ALIGN * WORKSPACE_ALIGN;
}

/// Blocks of `per_block` items that cover n items (0 for none).
constexpr unsigned blocks_covering(size_t n, size_t per_block)
{
    return static_cast<unsigned>((n + per_block - 1) / per_block);
}

/// Blocks for a grid-stride loop over n items at per_block items a block on
/// its first pass: at least one, at most `most` (the loop covers the rest).
constexpr unsigned grid_stride_blocks(size_t n, size_t per_block, unsigned most)
{
    const size_t blocks = (n + per_block - 1) / per_block;
    return blocks == 0 ? 1u : blocks > most ? most : static_cast<unsigned>(blocks);
}

/// The sections of a workspace, one after another: take() gives a section
/// its offset; bytes is the size of the sections taken so far.
struct WorkspaceSections {
    size_t bytes = 0;
    size_t take(size_t section_bytes)
    {
        const size_t at = bytes;
        bytes += workspace_align(section_bytes);
        return at;
    }
};

/// A grid of bx x by blocks covering a w x h range, with z layers.
inline dim3 grid_covering(int w, int h, int bx, int by, unsigned z = 1)
{
    return dim3(blocks_covering(static_cast<size_t>(w), static_cast<size_t>(bx)),
                blocks_covering(static_cast<size_t>(h), static_cast<size_t>(by)), z);
}

} // namespace vmafhip
