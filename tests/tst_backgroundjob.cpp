// The GUI's one background-job type (views/jobs/backgroundjob.h): a result reaches `done` with
// its id; a superseded or cancelled job delivers nothing, neither its result nor what it posts;
// a failing job reports its message; posts arrive in order, before the result.

#include "views/jobs/backgroundjob.h"

#include <QSignalSpy>
#include <QTest>
#include <atomic>
#include <stdexcept>
#include <thread>

using namespace rankscope;

class TestBackgroundJob : public QObject
{
    Q_OBJECT

private slots:
    void resultArrivesWithItsId()
    {
        BackgroundJob job;
        QSignalSpy idle(&job, &BackgroundJob::idle);
        quint64 got = 0;
        int value = 0;
        const quint64 id = job.start<int>(
            "sum",
            [](const ProgressCallback& keepGoing, const BackgroundJob::Post&) {
                int s = 0;
                for (int i = 1; i <= 10; ++i) {
                    s += i;
                    keepGoing(i / 10.0);
                }
                return s;
            },
            [&](quint64 i, int v) {
                got = i;
                value = v;
            });
        QVERIFY(job.busy());
        QCOMPARE(job.currentId(), id);
        QVERIFY(idle.wait(5000));
        QCOMPARE(got, id);
        QCOMPARE(value, 55); // 1 + 2 + ... + 10
        QVERIFY(!job.busy());
    }

    void supersededAndCancelledDeliverNothing()
    {
        BackgroundJob job;
        std::atomic<bool> release{false};
        int delivered = 0, posted = 0;
        const auto slow = [&](const ProgressCallback& keepGoing, const BackgroundJob::Post& post) {
            while (!release)
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
            post([&] { ++posted; });
            keepGoing(1.0);
            return 1;
        };
        QSignalSpy cancelled(&job, &BackgroundJob::cancelled);
        const quint64 first = job.start<int>("first", slow, [&](quint64, int) { ++delivered; });
        const quint64 second = job.start<int>("second", slow, [&](quint64, int) { ++delivered; });
        QVERIFY(second != first);
        QCOMPARE(cancelled.count(), 1); // the first was superseded
        QCOMPARE(cancelled.front().at(0).toULongLong(), first);
        job.cancel();
        QCOMPARE(cancelled.count(), 2);
        release = true;
        QTest::qWait(300);
        QCOMPARE(delivered, 0);
        QCOMPARE(posted, 0);
    }

    void postsArriveInOrderBeforeTheResult()
    {
        BackgroundJob job;
        std::vector<int> seen;
        QSignalSpy idle(&job, &BackgroundJob::idle);
        job.start<int>(
            "points",
            [&seen](const ProgressCallback&, const BackgroundJob::Post& post) {
                for (int i = 0; i < 5; ++i)
                    post([i, &seen] { seen.push_back(i); });
                return 5;
            },
            [&seen](quint64, int v) { seen.push_back(100 + v); });
        QVERIFY(idle.wait(5000));
        QCOMPARE(seen, (std::vector<int>{0, 1, 2, 3, 4, 105}));
    }

    void destroyedJobEmitsNothing()
    {
        // A job destroyed while it runs (its owner closing) cancels and waits, and emits
        // nothing: its owner's slots would run on a half-destroyed object.
        int emitted = 0;
        {
            std::atomic<bool> release{false};
            auto* job = new BackgroundJob;
            job->start<int>(
                "slow",
                [&](const ProgressCallback& keepGoing, const BackgroundJob::Post&) {
                    while (!release && keepGoing(0.5))
                        std::this_thread::sleep_for(std::chrono::milliseconds(2));
                    return 0;
                },
                [](quint64, int) {});
            connect(job, &BackgroundJob::progressChanged, [&] { ++emitted; });
            connect(job, &BackgroundJob::cancelled, [&] { ++emitted; });
            connect(job, &BackgroundJob::idle, [&] { ++emitted; });
            delete job; // cancels: the worker sees keepGoing return false and ends
        }
        QCOMPARE(emitted, 0);
    }

    void failureIsReported()
    {
        BackgroundJob job;
        QSignalSpy failed(&job, &BackgroundJob::failed);
        bool delivered = false;
        job.start<int>(
            "fails",
            [](const ProgressCallback&, const BackgroundJob::Post&) -> int {
                throw std::runtime_error("spec.yaml:3: links.hdr.latency: not a duration");
            },
            [&](quint64, int) { delivered = true; });
        QVERIFY(failed.wait(5000));
        QCOMPARE(failed.front().at(1).toString(),
                 QStringLiteral("spec.yaml:3: links.hdr.latency: not a duration"));
        QVERIFY(!delivered);
        QVERIFY(!job.busy());
    }
};

QTEST_GUILESS_MAIN(TestBackgroundJob)
#include "tst_backgroundjob.moc"
