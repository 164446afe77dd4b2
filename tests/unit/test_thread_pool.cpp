#include <gtest/gtest.h>

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
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

#if defined(__linux__)
TEST(ThreadPool, WorkersNamedAsAsked)
{
    ThreadPool pool(4, "vmafhip-test");
    std::atomic<int> named{0}, others{0};
    const pthread_t caller = pthread_self();
    // Slow chunks, so that workers take some (the caller keeps its own name).
    for (int round = 0; round < 10 && named == 0; round++) {
        pool.parallel_for(16, 1, [&](int, int) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            if (pthread_equal(pthread_self(), caller))
                return;
            char name[16] = {};
            pthread_getname_np(pthread_self(), name, sizeof(name));
            (std::string(name) == "vmafhip-test" ? named : others)++;
        });
    }
    EXPECT_GT(named.load(), 0);
    EXPECT_EQ(others.load(), 0);
}
#endif
