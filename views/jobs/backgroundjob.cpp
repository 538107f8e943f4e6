#include "views/jobs/backgroundjob.h"

namespace rankscope {

BackgroundJob::BackgroundJob(QObject* parent) : QObject(parent) {}

BackgroundJob::~BackgroundJob()
{
    // No signals from here: the job is usually a child destroyed with its owner, whose slots
    // would run on a half-destroyed object.
    blockSignals(true);
    drop();
    for (Running& r : abandoned_)
        r.wait();
}

void BackgroundJob::drop()
{
    if (!current_) return;
    const quint64 id = id_;
    current_->cancel();
    abandoned_.push_back(std::move(*current_));
    current_.reset();
    std::erase_if(abandoned_, [](const Running& r) { return r.finished(); });
    fraction_ = 0;
    emit progressChanged(0.0);
    emit cancelled(id);
    emit idle();
}

void BackgroundJob::cancel()
{
    drop();
}

void BackgroundJob::end(quint64 id)
{
    current_.reset();
    fraction_ = 0;
    emit progressChanged(0.0);
    emit cancelled(id);
    emit idle();
}

void BackgroundJob::reportFailure(quint64 id, const QString& message)
{
    current_.reset();
    fraction_ = 0;
    emit progressChanged(0.0);
    emit failed(id, message);
    emit idle();
}

} // namespace rankscope
