#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "base/thread_pool.h"

using vmafhip::ThreadPool;

TEST(ThreadPool, CoversEveryIndexOnce)
{
    for (int threads : {1, 2, 7}) {
        ThreadPool pool(threads);
        for (int n : {0, 1, 5, 1000}) {
            std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
            pool.parallel_for(n, 1, [&](int b, int e) {
                for (int i = b; i < e; i++)
                    hits[i]++;
            });
            for (int i = 0; i < n; i++)
                ASSERT_EQ(hits[i].load(), 1) << "n=" << n << " i=" << i << " threads=" << threads;
        }
    }
}

TEST(ThreadPool, ReusableManyTimes)
{
    ThreadPool pool(4);
    std::atomic<long> sum{0};
    for (int round = 0; round < 200; round++)
        pool.parallel_for(100, 3, [&](int b, int e) {
            for (int i = b; i < e; i++)
                sum += i;
        });
    EXPECT_EQ(sum.load(), 200L * 4950);
}
