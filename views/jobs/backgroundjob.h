#pragma once
// The one kind of background job of the GUI (ARCHITECTURE.md, threads; STYLE.md, flow): runs a
// core call off the GUI thread and hands its result back on it. Every job has an id; starting
// another supersedes the running one (it is cancelled and whatever it still delivers is
// dropped); progress is one fraction 0..1, throttled by Qt's future watcher; cancel() stops the
// work at its next progress callback. A result whose job was superseded or cancelled never
// reaches `done`.
//
// The work gets a progress callback (ProgressCallback: returns false once cancelled) and
// `post`, which runs a function on the GUI thread while the job is still the current one (a
// sweep's points as they end). One job object runs one job at a time; views and controllers
// that run several kinds keep one job object each.

#include "model/support/progressreporter.h"
#include "model/trace/traceerror.h"

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QPromise>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace rankscope {

class BackgroundJob : public QObject
{
    Q_OBJECT
public:
    /// Runs `f` on the GUI thread if the job that posted it is still the current one.
    using Post = std::function<void(std::function<void()>)>;

    explicit BackgroundJob(QObject* parent = nullptr);
    /// Cancels the running job and waits for every worker it started.
    ~BackgroundJob() override;

    /// Starts `work` and returns its id; `done` gets its result on the GUI thread unless the
    /// job was cancelled or superseded first. `work` may throw: then `failed` is emitted with
    /// its message (Cancelled counts as cancelled).
    template <class T>
    quint64 start(const QString& description,
                  std::function<T(const ProgressCallback&, const Post&)> work,
                  std::function<void(quint64, T)> done);
    void cancel();
    bool busy() const { return current_ != nullptr; }
    double progress() const { return fraction_; }
    /// The running job's id; 0 when none runs.
    quint64 currentId() const { return busy() ? id_ : 0; }

signals:
    void started(quint64 id, const QString& description);
    void progressChanged(double fraction);
    void failed(quint64 id, const QString& message);
    void cancelled(quint64 id);
    /// Nothing runs any more (finished, failed or cancelled).
    void idle();

private:
    struct Running
    {
        std::function<void()> cancel;
        std::function<bool()> finished;
        std::function<void()> wait;
    };
    static constexpr int kSteps = 1000;
    /// Forgets the running job (its later deliveries are dropped) and cancels it.
    void drop();
    /// The running job ended with `ok` (false: cancelled); emits and cleans up.
    void end(quint64 id);
    void reportFailure(quint64 id, const QString& message);

    std::unique_ptr<Running> current_;
    std::vector<Running> abandoned_; ///< superseded, maybe still running
    quint64 id_ = 0;
    quint64 nextId_ = 1;
    double fraction_ = 0;
};

template <class T>
quint64 BackgroundJob::start(const QString& description,
                             std::function<T(const ProgressCallback&, const Post&)> work,
                             std::function<void(quint64, T)> done)
{
    drop();
    const quint64 id = nextId_++;
    id_ = id;
    fraction_ = 0;
    // The result, or why there is none.
    struct Outcome
    {
        std::optional<T> value;
        QString error;
    };
    auto* watcher = new QFutureWatcher<Outcome>(this);
    const Post post = [this, id](std::function<void()> f) {
        QMetaObject::invokeMethod(
            this,
            [this, id, f = std::move(f)] {
                if (current_ && id == id_) f();
            },
            Qt::QueuedConnection);
    };
    connect(watcher, &QFutureWatcherBase::progressValueChanged, this, [this, id](int value) {
        if (!current_ || id != id_) return;
        fraction_ = double(value) / kSteps;
        emit progressChanged(fraction_);
    });
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, id, done] {
        watcher->deleteLater();
        if (!current_ || id != id_) return; // superseded or cancelled: dropped
        const QFuture<Outcome> f = watcher->future();
        if (f.isCanceled() || f.resultCount() == 0) {
            end(id);
            return;
        }
        Outcome out = f.result();
        if (!out.error.isEmpty()) {
            reportFailure(id, out.error);
            return;
        }
        current_.reset();
        fraction_ = 0;
        emit progressChanged(0.0);
        if (out.value) done(id, std::move(*out.value));
        emit idle();
    });
    QFuture<Outcome> future =
        QtConcurrent::run([work = std::move(work), post](QPromise<Outcome>& promise) {
            promise.setProgressRange(0, kSteps);
            const ProgressCallback keepGoing = [&promise](double f) {
                promise.setProgressValue(int(std::clamp(f, 0.0, 1.0) * kSteps));
                return !promise.isCanceled();
            };
            Outcome out;
            try {
                out.value = work(keepGoing, post);
            } catch (const Cancelled&) {
                return;
            } catch (const std::bad_alloc&) {
                out.error = tr("not enough memory");
            } catch (const std::exception& e) {
                out.error = QString::fromLocal8Bit(e.what());
            }
            if (!promise.isCanceled()) promise.addResult(std::move(out));
        });
    watcher->setFuture(future);
    current_ = std::make_unique<Running>(Running{[future]() mutable { future.cancel(); },
                                                 [future] { return future.isFinished(); },
                                                 [future]() mutable { future.waitForFinished(); }});
    emit started(id, description);
    emit progressChanged(0.0);
    return id;
}

} // namespace rankscope
