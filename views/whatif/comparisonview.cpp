#include "views/whatif/comparisonview.h"

#include "model/matching/mpicallscanner.h"
#include "model/profile/profile.h"
#include "model/trace/mpilifecycle.h"
#include "model/trace/trace.h"
#include "views/panes/durationformat.h"
#include "views/timeline/summarystrip.h"
#include "views/timeline/timelineindex.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>

namespace rankscope {

ComparisonView::ComparisonView(QWidget* parent)
    : QWidget(parent), alignBox_(new QComboBox(this)), strip_(new SummaryStrip(this))
{
    alignBox_->addItem(tr("Align at time zero"), int(Alignment::AbsoluteTime));
    alignBox_->addItem(tr("Align at end of MPI_Init"), int(Alignment::EndOfMpiInit));
    alignBox_->setCurrentIndex(1);
    alignBox_->setToolTip(tr("How the two runs share the time axis: each at its own time zero, "
                             "or with the end of MPI_Init (latest over ranks) at zero"));
    connect(alignBox_, &QComboBox::currentIndexChanged, this,
            [this](int index) { setAlignment(Alignment(alignBox_->itemData(index).toInt())); });

    auto* top = new QHBoxLayout;
    top->setContentsMargins(6, 2, 6, 2);
    top->addWidget(new QLabel(tr("Time axis:"), this));
    top->addWidget(alignBox_);
    top->addStretch(1);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setChildrenCollapsible(false);
    for (int i = 0; i < 2; ++i) {
        auto* pane = new QWidget(splitter);
        auto* layout = new QVBoxLayout(pane);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(0);
        titles_[size_t(i)] = new QLabel(pane);
        titles_[size_t(i)]->setContentsMargins(6, 3, 6, 3);
        QFont f = titles_[size_t(i)]->font();
        f.setBold(true);
        titles_[size_t(i)]->setFont(f);
        views_[size_t(i)] = new TimelineView(pane);
        layout->addWidget(titles_[size_t(i)]);
        layout->addWidget(views_[size_t(i)], 1);
        splitter->addWidget(pane);
        connect(views_[size_t(i)], &TimelineView::visibleRangeChanged, this,
                [this, i](double b, double e) { couple(i, b, e); });
        connect(views_[size_t(i)], &TimelineView::selectionChanged, this,
                &ComparisonView::selectionChanged);
    }

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);
    layout->addWidget(strip_);
}

std::optional<int64_t> ComparisonView::endOfMpiInit(const Trace& trace)
{
    const MpiLifecycle lifecycle = MpiLifecycle::of(trace);
    if (lifecycle.init.empty()) return std::nullopt;
    std::optional<int64_t> latest;
    for (uint32_t r = 0; r < trace.rankCount(); ++r) {
        MpiCallScanner scanner(trace, RankId(r));
        CallRecord call;
        // MPI_Init is a rank's first MPI call; stop at it rather than scanning the whole rank.
        while (scanner.next(call)) {
            if (lifecycle.isInit(call.region)) {
                latest = std::max(latest.value_or(call.leaveTime), call.leaveTime);
                break;
            }
        }
    }
    return latest;
}

void ComparisonView::setRuns(Run first, Run second)
{
    runs_ = {std::move(first), std::move(second)};
    for (size_t i = 0; i < 2; ++i) {
        const Run& r = runs_[i];
        initEnd_[i] = r.trace ? endOfMpiInit(*r.trace) : std::nullopt;
        views_[i]->setTrace(r.trace, r.summary, r.index);
        views_[i]->setWaitStates(r.waits, r.waitSummary);
    }
    if (runs_[0].trace && runs_[1].trace && runs_[0].profile && runs_[1].profile)
        strip_->setRuns(SummaryStrip::Run::of(runs_[0].name, *runs_[0].profile),
                        SummaryStrip::Run::of(runs_[1].name, *runs_[1].profile));
    applyAlignment();
}

void ComparisonView::setAlignment(Alignment alignment)
{
    alignment_ = alignment;
    const int index = alignBox_->findData(int(alignment));
    if (index != alignBox_->currentIndex()) {
        const QSignalBlocker block(alignBox_);
        alignBox_->setCurrentIndex(index);
    }
    applyAlignment();
}

void ComparisonView::applyAlignment()
{
    double begin = 0;
    double end = 0;
    bool any = false;
    for (size_t i = 0; i < 2; ++i) {
        const Run& r = runs_[i];
        const bool atInit = alignment_ == Alignment::EndOfMpiInit && initEnd_[i].has_value();
        const int64_t offset = atInit ? *initEnd_[i] : 0;
        views_[i]->setTimeOffset(offset);
        QString title = r.name;
        if (r.trace) {
            title += tr("  —  %1 ranks, %2")
                         .arg(r.trace->rankCount())
                         .arg(formatDuration(double(r.trace->duration())));
            if (alignment_ == Alignment::EndOfMpiInit)
                title += atInit ? tr(", MPI_Init ends at %1").arg(formatDuration(double(offset)))
                                : tr(" (no MPI_Init: aligned at time zero)");
            const double b = double(r.trace->beginTime() - offset);
            const double e = double(r.trace->endTime() - offset);
            begin = any ? std::min(begin, b) : b;
            end = any ? std::max(end, e) : e;
            any = true;
        }
        titles_[i]->setText(title);
    }
    // One axis for both: each view may show the union of the two runs (the shorter one shows
    // empty time past its end). Aligned at the end of MPI_Init, both start at that point: the
    // alignment exists to set start-up aside, and a long MPI_Init (a measured run against its
    // replay, which does not model start-up) would otherwise squeeze the run into a corner.
    // Zooming out still shows the whole union.
    if (any && end > begin) {
        const bool fromInit = alignment_ == Alignment::EndOfMpiInit &&
                              (initEnd_[0].has_value() || initEnd_[1].has_value()) && end > 0;
        const double shown = fromInit ? std::max(begin, 0.0) : begin;
        const QSignalBlocker guard0(views_[0]);
        const QSignalBlocker guard1(views_[1]);
        views_[0]->setTimeLimits(begin, end);
        views_[1]->setTimeLimits(begin, end);
        views_[0]->setVisibleRange(shown, end);
        views_[1]->setVisibleRange(shown, end);
    }
}

void ComparisonView::couple(int from, double beginNs, double endNs)
{
    if (coupling_) return;
    coupling_ = true;
    views_[size_t(1 - from)]->setVisibleRange(beginNs, endNs);
    coupling_ = false;
}

} // namespace rankscope
