#include "views/matrix/commmatrixpanel.h"

#include "model/trace/trace.h"
#include "views/jobs/backgroundjob.h"
#include "views/matrix/commmatrixview.h"
#include "views/panes/durationformat.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <limits>

namespace rankscope {

namespace {

constexpr int kProgressSteps = 1000;

} // namespace

CommMatrixPanel::CommMatrixPanel(QWidget* parent)
    : QWidget(parent), metric_(new QComboBox(this)), collectives_(new QCheckBox(this)),
      summary_(new QLabel(this)), progress_(new QProgressBar(this)), cancel_(new QToolButton(this)),
      view_(new CommMatrixView(this)), debounce_(new QTimer(this)), job_(new BackgroundJob(this))
{
    connect(job_, &BackgroundJob::progressChanged, this,
            [this](double f) { progress_->setValue(int(f * kProgressSteps)); });
    metric_->addItem(tr("Messages"), int(CommMatrixMetric::Count));
    metric_->addItem(tr("Bytes"), int(CommMatrixMetric::Bytes));
    metric_->addItem(tr("Mean transfer time"), int(CommMatrixMetric::MeanTime));
    metric_->addItem(tr("Max transfer time"), int(CommMatrixMetric::MaxTime));
    metric_->setToolTip(tr("What colours each sender/receiver cell"));
    connect(metric_, &QComboBox::currentIndexChanged, this,
            [this] { view_->setMetric(CommMatrixMetric(metric_->currentData().toInt())); });
    collectives_->setText(tr("Collectives"));
    collectives_->setToolTip(tr("Add the traffic collective operations imply (messages and "
                                "bytes; they have no transfer time)"));
    connect(collectives_, &QCheckBox::toggled, this, [this](bool on) {
        options_.includeCollectives = on;
        recomputeNow();
    });
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    progress_->setRange(0, kProgressSteps);
    progress_->setMaximumWidth(140);
    progress_->setTextVisible(false);
    progress_->hide();
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop computing the matrix"));
    cancel_->hide();
    connect(cancel_, &QToolButton::clicked, this, &CommMatrixPanel::cancel);
    debounce_->setSingleShot(true);
    debounce_->setInterval(kDebounceMs);
    connect(debounce_, &QTimer::timeout, this, &CommMatrixPanel::start);
    connect(view_, &CommMatrixView::cellClicked, this, &CommMatrixPanel::cellClicked);
    view_->setToolTip(tr("Sender rank (row) to receiver rank (column); hover for values, click "
                         "to highlight the messages on the timeline"));

    auto* controls = new QHBoxLayout;
    controls->addWidget(metric_);
    controls->addWidget(collectives_);
    controls->addWidget(summary_, 1);
    controls->addWidget(progress_);
    controls->addWidget(cancel_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(view_, 1);
}

CommMatrixPanel::~CommMatrixPanel() = default; // job_ (a child) cancels and waits

void CommMatrixPanel::setTrace(std::shared_ptr<const Trace> trace)
{
    trace_ = std::move(trace);
    options_.from = std::numeric_limits<int64_t>::min();
    options_.to = std::numeric_limits<int64_t>::max();
    view_->setMatrix(nullptr);
    view_->setRanks({});
    recomputeNow();
}

void CommMatrixPanel::setTimeRange(int64_t from, int64_t to)
{
    if (from == options_.from && to == options_.to) return;
    options_.from = from;
    options_.to = to;
    schedule();
}

void CommMatrixPanel::setRanks(std::vector<RankId> ranks)
{
    view_->setRanks(std::move(ranks));
    updateSummary();
}

void CommMatrixPanel::schedule()
{
    debounce_->start();
}

void CommMatrixPanel::recomputeNow()
{
    debounce_->stop();
    start();
}

bool CommMatrixPanel::busy() const
{
    return job_->busy() || debounce_->isActive();
}

void CommMatrixPanel::cancel()
{
    debounce_->stop();
    if (job_->busy()) {
        job_->cancel();
        cancelled_ = true;
    }
    progress_->hide();
    cancel_->hide();
    updateSummary();
}

void CommMatrixPanel::start()
{
    cancel(); // a newer request supersedes the running job
    cancelled_ = false;
    if (!trace_) {
        updateSummary();
        return;
    }
    job_->start<CommMatrix>(
        tr("Communication matrix"),
        [trace = trace_, options = options_](const ProgressCallback& keepGoing,
                                             const BackgroundJob::Post&) {
            CommMatrix m = computeCommMatrix(*trace, options, keepGoing);
            if (m.cancelled) throw Cancelled();
            return m;
        },
        [this](quint64, CommMatrix m) {
            progress_->hide();
            cancel_->hide();
            view_->setMatrix(std::make_shared<const CommMatrix>(std::move(m)));
            updateSummary();
            emit matrixReady();
        });
    progress_->setValue(0);
    progress_->show();
    cancel_->show();
    updateSummary();
}

QString CommMatrixPanel::summaryText() const
{
    return summary_->text();
}

void CommMatrixPanel::updateSummary()
{
    if (job_->busy()) {
        summary_->setText(tr("Computing…"));
        return;
    }
    const std::shared_ptr<const CommMatrix> m = view_->matrix();
    if (!m) {
        summary_->setText(cancelled_ ? tr("Cancelled; change the range to compute again")
                                     : QString());
        return;
    }
    uint64_t count = 0, bytes = 0;
    for (const CommMatrixCell& c : m->cells) {
        count += c.count;
        bytes += c.bytes;
    }
    QString text = tr("%1 messages · %2 · %3 pairs")
                       .arg(formatCount(count), formatBytes(bytes), formatCount(m->cells.size()));
    if (trace_ && (options_.from > trace_->beginTime() || options_.to <= trace_->endTime()))
        text += tr(" · sent in %1 – %2")
                    .arg(formatTimestamp(std::max(options_.from, trace_->beginTime())),
                         formatTimestamp(std::min(options_.to, trace_->endTime())));
    if (m->unmatched > 0) text += tr(" · %1 unmatched").arg(formatCount(m->unmatched));
    if (cancelled_) text += tr(" (an update was cancelled)");
    summary_->setText(text);
}

} // namespace rankscope
