// float_psnr, float_moment and float_ansnr kernels (docs/float_psnr.md §1-§4,
// §6; § numbers are its sections). Per frame, on one stream:
//   luma_kernel     one thread per sample: both luma planes as float32
//                   through kernels/picture_sample.h (§1), the CPU's function
//   float_psnr      terms_kernel, one thread per pixel: the float32 square
//                   of the difference (float_picture_ops.h); the ordered sum
//                   (kernels/device/ordered_sum.h) adds the terms into one
//                   double in raster order, as libvmaf does, to the bit (§2.1)
//   float_moment    squares_kernel, one thread per pixel: the float32
//                   squares; four ordered sums into doubles: the samples and
//                   the squares of each picture (§4)
//   float_ansnr     filter_kernel, one thread per pixel: both filtered
//                   samples (§3.2); rows_kernel, one thread per row: its
//                   float32 sums left to right; total_kernel, one thread:
//                   the rows' sums top to bottom in float32 (§3.3)
// The per-pixel and per-row arithmetic is float_picture_ops.h's, which the
// CPU code runs too; no sum is split or reordered.
#include "kernels/float_picture/float_picture.h"

#include <cstdint>

#include "kernels/device/launch.h"
#include "kernels/device/ordered_sum.h"
#include "kernels/picture_sample.h"

namespace vmafhip {

namespace {

constexpr int kThreads = 256;        // 1D kernels
constexpr int kThreadsX = 32;        // filter_kernel
constexpr int kThreadsY = 8;
constexpr unsigned kMaxBlocks = 65535; // 1D grids: grid-stride loops beyond

__host__ __device__ inline size_t pixels(int w, int h) { return static_cast<size_t>(w) * static_cast<size_t>(h); }

/// Blocks of kThreads for a grid-stride loop over n items.
unsigned blocks_for(size_t n) { return grid_stride_blocks(n, kThreads, kMaxBlocks); }

__device__ __forceinline__ size_t first_index()
{
    return static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ size_t grid_stride()
{
    return static_cast<size_t>(gridDim.x) * blockDim.x;
}

// §1: both luma planes (w x h, tightly packed, the same size) as float32.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    luma_kernel(GpuPlane ref, GpuPlane dis, int bpc, int offset, float *ref_out, float *dis_out)
{
    const size_t n = pixels(ref.w, ref.h);
    const T *r = reinterpret_cast<const T *>(ref.data);
    const T *d = reinterpret_cast<const T *>(dis.data);
    for (size_t i = first_index(); i < n; i += grid_stride()) {
        ref_out[i] = picture_sample(r[i], bpc, offset);
        dis_out[i] = picture_sample(d[i], bpc, offset);
    }
}

void luma_enqueue(hipStream_t stream, const GpuFrame &f, int offset, float *ref_out, float *dis_out)
{
    const unsigned grid = blocks_for(pixels(f.ref[0].w, f.ref[0].h));
    if (f.bpc > 8)
        luma_kernel<uint16_t><<<grid, kThreads, 0, stream>>>(f.ref[0], f.dis[0], f.bpc, offset,
                                                             ref_out, dis_out);
    else
        luma_kernel<uint8_t><<<grid, kThreads, 0, stream>>>(f.ref[0], f.dis[0], f.bpc, offset,
                                                            ref_out, dis_out);
}

// §2.1: float_psnr's terms.
__global__ void __launch_bounds__(kThreads)
    terms_kernel(const float *ref, const float *dis, size_t n, float *out)
{
    for (size_t i = first_index(); i < n; i += grid_stride())
        out[i] = float_psnr_term(ref[i], dis[i]);
}

// §4: float_moment's squares.
__global__ void __launch_bounds__(kThreads)
    squares_kernel(const float *ref, const float *dis, size_t n, float *ref2, float *dis2)
{
    for (size_t i = first_index(); i < n; i += grid_stride()) {
        ref2[i] = float_moment_square(ref[i]);
        dis2[i] = float_moment_square(dis[i]);
    }
}

// §3.2: both filtered planes, one thread per pixel.
__global__ void __launch_bounds__(kThreadsX * kThreadsY)
    filter_kernel(const AnsnrTaps *taps, const float *ref, const float *dis, int w, int h,
                  float *ref_out, float *dis_out)
{
    const int x = static_cast<int>(blockIdx.x) * kThreadsX + static_cast<int>(threadIdx.x);
    const int y = static_cast<int>(blockIdx.y) * kThreadsY + static_cast<int>(threadIdx.y);
    if (x >= w || y >= h)
        return;
    const size_t i = static_cast<size_t>(y) * w + x;
    ref_out[i] = ansnr_filter_pixel<3>(taps->ref, ref, w, h, x, y);
    dis_out[i] = ansnr_filter_pixel<5>(taps->dis, dis, w, h, x, y);
}

// §3.3: each row's float32 sums, one thread per row.
__global__ void __launch_bounds__(kThreads)
    rows_kernel(const float *ref, const float *dis, int w, int h, float *row_sig,
                float *row_noise)
{
    const int y = static_cast<int>(blockIdx.x) * kThreads + static_cast<int>(threadIdx.x);
    if (y >= h)
        return;
    const size_t row = static_cast<size_t>(y) * w;
    ansnr_row_sums(ref + row, dis + row, w, &row_sig[y], &row_noise[y]);
}

// §3.3: the rows' sums in order, by one thread.
__global__ void total_kernel(const float *row_sig, const float *row_noise, int h,
                             FloatAnsnrAccum *out)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        ansnr_total(row_sig, row_noise, h, out);
}

/// Workspace offsets: float planes of n floats, then records of an ordered
/// sum of n values, each part aligned.
size_t plane_bytes(size_t n) { return workspace_align(sizeof(float) * n); }

size_t chunk_bytes(size_t n)
{
    return workspace_align(sizeof(OrderedChunk<double>) * (ordered_chunks(n) + 1));
}

} // namespace

// float_psnr's workspace: ref, dis, terms (n floats each), the sum's records.
size_t float_psnr_workspace_bytes(int w, int h)
{
    const size_t n = pixels(w, h);
    return 3 * plane_bytes(n) + chunk_bytes(n);
}

void float_psnr_enqueue(hipStream_t stream, const GpuFrame &f, void *workspace,
                        FloatPsnrAccum *d_out)
{
    const size_t n = pixels(f.ref[0].w, f.ref[0].h);
    uint8_t *ws = static_cast<uint8_t *>(workspace);
    float *ref = reinterpret_cast<float *>(ws);
    float *dis = reinterpret_cast<float *>(ws + plane_bytes(n));
    float *terms = reinterpret_cast<float *>(ws + 2 * plane_bytes(n));
    auto *chunks = reinterpret_cast<OrderedChunk<double> *>(ws + 3 * plane_bytes(n));
    luma_enqueue(stream, f, 0, ref, dis);
    terms_kernel<<<blocks_for(n), kThreads, 0, stream>>>(ref, dis, n, terms);
    // FloatPsnrAccum is one double: the ordered sum writes it.
    ordered_sum_enqueue(stream, terms, n, chunks, &d_out->noise);
}

// float_moment's workspace: ref, dis, their squares (n floats each), and the
// records of four sums.
size_t float_moment_workspace_bytes(int w, int h)
{
    const size_t n = pixels(w, h);
    return 4 * plane_bytes(n) + 4 * chunk_bytes(n);
}

void float_moment_enqueue(hipStream_t stream, const GpuFrame &f, void *workspace,
                          FloatMomentAccum *d_out)
{
    const size_t n = pixels(f.ref[0].w, f.ref[0].h);
    uint8_t *ws = static_cast<uint8_t *>(workspace);
    float *plane[4]; // ref, dis, ref squares, dis squares
    OrderedChunk<double> *chunks[4];
    for (int k = 0; k < 4; k++) {
        plane[k] = reinterpret_cast<float *>(ws + k * plane_bytes(n));
        chunks[k] = reinterpret_cast<OrderedChunk<double> *>(ws + 4 * plane_bytes(n) +
                                                             k * chunk_bytes(n));
    }
    luma_enqueue(stream, f, 0, plane[0], plane[1]);
    squares_kernel<<<blocks_for(n), kThreads, 0, stream>>>(plane[0], plane[1], n, plane[2],
                                                           plane[3]);
    // Each sum writes one double of the accumulators.
    ordered_sum_enqueue(stream, plane[0], n, chunks[0], &d_out->ref1);
    ordered_sum_enqueue(stream, plane[1], n, chunks[1], &d_out->dis1);
    ordered_sum_enqueue(stream, plane[2], n, chunks[2], &d_out->ref2);
    ordered_sum_enqueue(stream, plane[3], n, chunks[3], &d_out->dis2);
}

// float_ansnr's workspace: ref, dis, both filtered (n floats each), then the
// rows' sig and noise sums (h floats each).
size_t float_ansnr_workspace_bytes(int w, int h)
{
    return 4 * plane_bytes(pixels(w, h)) + 2 * plane_bytes(static_cast<size_t>(h));
}

void float_ansnr_enqueue(hipStream_t stream, const GpuFrame &f, const AnsnrTaps *d_taps,
                         void *workspace, FloatAnsnrAccum *d_out)
{
    const int w = f.ref[0].w, h = f.ref[0].h;
    const size_t n = pixels(w, h);
    uint8_t *ws = static_cast<uint8_t *>(workspace);
    float *plane[4]; // ref, dis, filtered ref, filtered dis
    for (int k = 0; k < 4; k++)
        plane[k] = reinterpret_cast<float *>(ws + k * plane_bytes(n));
    float *row_sig = reinterpret_cast<float *>(ws + 4 * plane_bytes(n));
    float *row_noise = reinterpret_cast<float *>(ws + 4 * plane_bytes(n) +
                                                 plane_bytes(static_cast<size_t>(h)));
    luma_enqueue(stream, f, -128, plane[0], plane[1]); // §3.1: offset -128
    const dim3 grid = grid_covering(w, h, kThreadsX, kThreadsY);
    filter_kernel<<<grid, dim3(kThreadsX, kThreadsY), 0, stream>>>(d_taps, plane[0], plane[1], w,
                                                                   h, plane[2], plane[3]);
    rows_kernel<<<blocks_covering(h, kThreads), kThreads, 0, stream>>>(
        plane[2], plane[3], w, h, row_sig, row_noise);
    total_kernel<<<1, 1, 0, stream>>>(row_sig, row_noise, h, d_out);
}

} // namespace vmafhip
