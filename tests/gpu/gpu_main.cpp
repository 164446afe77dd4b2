// Entry point of the GPU test programs: without a usable GPU they exit 77,
// which meson reports as skipped.
#include <gtest/gtest.h>

#include <cstdio>

#include "vmafhip.h"

int main(int argc, char **argv)
{
    if (vmafhip_device_count() == 0) {
        std::printf("no usable GPU (or built with gpu_platform=none): skipped\n");
        return 77;
    }
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
