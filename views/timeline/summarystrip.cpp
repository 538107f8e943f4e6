#include "views/timeline/summarystrip.h"

#include "model/profile/profile.h"
#include "model/trace/trace.h"
#include "views/panes/durationformat.h"

#include <QGridLayout>
#include <QLabel>

namespace rankscope {

SummaryStrip::Run SummaryStrip::Run::of(const QString& name, const Profile& profile)
{
    return Run{name, profile.spanNs, profile.spanMpiTimePerRank};
}

SummaryStrip::SummaryStrip(QWidget* parent) : QWidget(parent), grid_(new QGridLayout(this))
{
    grid_->setContentsMargins(6, 2, 6, 2);
    grid_->setHorizontalSpacing(18);
    grid_->setVerticalSpacing(1);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
}

void SummaryStrip::setRuns(const Run& first, const Run& second)
{
    lines_ = {
        {tr("Run time (end of MPI_Init to end of MPI_Finalize)"), double(first.durationNs),
         double(second.durationNs)},
        {tr("MPI time per rank, mean"), first.mpiTimePerRank.mean, second.mpiTimePerRank.mean},
        {tr("MPI time per rank, max"), double(first.mpiTimePerRank.max),
         double(second.mpiTimePerRank.max)},
    };
    rebuild(first.name, second.name);
}

void SummaryStrip::rebuild(const QString& firstName, const QString& secondName)
{
    while (QLayoutItem* item = grid_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    const auto label = [this](const QString& text, int row, int column, bool bold = false,
                              Qt::Alignment align = Qt::AlignRight) {
        auto* l = new QLabel(text, this);
        if (bold) {
            QFont f = l->font();
            f.setBold(true);
            l->setFont(f);
        }
        l->setAlignment(align | Qt::AlignVCenter);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        grid_->addWidget(l, row, column);
        return l;
    };
    label(QString(), 0, 0);
    label(firstName, 0, 1, true)->setToolTip(firstName);
    label(secondName, 0, 2, true)->setToolTip(secondName);
    label(tr("Difference"), 0, 3, true);
    label(tr("%"), 0, 4, true);
    int row = 1;
    for (const Line& l : lines_) {
        label(l.quantity, row, 0, false, Qt::AlignLeft);
        label(formatDuration(l.first), row, 1);
        label(formatDuration(l.second), row, 2);
        const double d = l.difference();
        label((d > 0 ? QStringLiteral("+") : QString()) + formatDuration(d), row, 3);
        label(l.first != 0 ? QStringLiteral("%1%2 %")
                                 .arg(l.percent() > 0 ? "+" : "")
                                 .arg(l.percent(), 0, 'f', 1)
                           : QStringLiteral("n/a"),
              row, 4);
        ++row;
    }
    grid_->setColumnStretch(5, 1);
}

} // namespace rankscope
