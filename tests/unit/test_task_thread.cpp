// base/task_thread.h: tasks run one at a time in queue order, off the
// caller's thread; ended() and wait_ended() see them end; abandon() drops
// the tasks not started and every later one, and returns once none runs.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include <pthread.h>

#include "base/task_thread.h"

using namespace vmafhip;

TEST(TaskThread, RunsInOrderOffTheCallersThread)
{
    TaskThread t;
    std::vector<int> order;
    std::mutex m;
    const std::thread::id caller = std::this_thread::get_id();
    std::atomic<int> on_caller{0};
    for (int i = 0; i < 100; i++) {
        EXPECT_EQ(t.queue([&, i] {
            if (std::this_thread::get_id() == caller)
                on_caller++;
            std::lock_guard<std::mutex> lock(m);
            order.push_back(i);
        }),
                  static_cast<uint64_t>(i));
    }
    t.wait_all();
    EXPECT_TRUE(t.ended(100));
    EXPECT_EQ(on_caller, 0);
    ASSERT_EQ(order.size(), 100u);
    for (int i = 0; i < 100; i++)
        EXPECT_EQ(order[i], i);
}

TEST(TaskThread, EndedOnlyOnceRun)
{
    TaskThread t;
    std::atomic<bool> go{false};
    t.queue([&] {
        while (!go)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    t.queue([] {});
    EXPECT_TRUE(t.ended(0));
    EXPECT_FALSE(t.ended(1));
    go = true;
    t.wait_ended(2);
    EXPECT_TRUE(t.ended(2));
}

TEST(TaskThread, AbandonDropsWhatHasNotStarted)
{
    TaskThread t;
    std::atomic<bool> started{false}, go{false};
    std::atomic<int> ran{0};
    t.queue([&] {
        started = true;
        while (!go)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        ran++;
    });
    for (int i = 0; i < 5; i++)
        t.queue([&] { ran++; });
    while (!started)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::thread release([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        go = true;
    });
    t.abandon(); // returns once the running task has ended
    EXPECT_EQ(ran, 1);
    release.join();
    EXPECT_TRUE(t.ended(6));
    EXPECT_EQ(t.queue([&] { ran++; }), 6u); // dropped at once
    EXPECT_TRUE(t.ended(7));
    EXPECT_EQ(ran, 1);
}

TEST(TaskThread, EndsWithTasksQueued)
{
    std::atomic<int> ran{0};
    {
        TaskThread t;
        for (int i = 0; i < 1000; i++)
            t.queue([&] { ran++; });
    } // dropped or run, none after
    const int seen = ran;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_EQ(ran, seen);
    EXPECT_LE(seen, 1000);
}

#if defined(__linux__)
TEST(TaskThread, NamedAsAsked)
{
    TaskThread t("vmafhip-test");
    char name[16] = {};
    t.queue([&] { pthread_getname_np(pthread_self(), name, sizeof(name)); });
    t.wait_all();
    EXPECT_STREQ(name, "vmafhip-test");
}
#endif
