#include "views/whatif/sweepview.h"

#include "views/panes/durationformat.h"
#include "views/panes/itemviewtext.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace rankscope {

SweepView::SweepView(QWidget* parent)
    : QWidget(parent), header_(new QLabel(this)), plot_(new SweepPlot(this)),
      model_(new QStandardItemModel(0, 4, this)), table_(new QTableView(this))
{
    header_->setWordWrap(true);
    header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    header_->setContentsMargins(6, 4, 6, 2);
    header_->setTextFormat(Qt::RichText);
    table_->setModel(model_);
    ItemViewText::install(table_);
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setAlternatingRowColors(true);
    table_->setWordWrap(false);
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    QHeaderView* h = table_->horizontalHeader();
    h->setMinimumSectionSize(fontMetrics().horizontalAdvance(QStringLiteral("888.88 ms")) + 16);
    for (int c : {ValueColumn, RuntimeColumn, WaitColumn})
        h->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    h->setSectionResizeMode(StatusColumn, QHeaderView::Stretch);
    h->setDefaultAlignment(Qt::AlignRight | Qt::AlignVCenter);
    model_->setHorizontalHeaderLabels(
        {tr("Value"), tr("Run time"), tr("Wait per rank"), tr("Status")});
    model_->horizontalHeaderItem(StatusColumn)->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);

    connect(plot_, &SweepPlot::pointClicked, this, [this](int i) {
        table_->selectRow(i);
        emit pointActivated(i);
    });
    connect(table_, &QTableView::doubleClicked, this,
            [this](const QModelIndex& index) { emit pointActivated(index.row()); });

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(plot_);
    splitter->addWidget(table_);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({400, 200});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(header_);
    layout->addWidget(splitter, 1);
}

void SweepView::setSweep(const QString& title, const QString& parameter, const QString& unit,
                         std::vector<SweepPlot::Point> points)
{
    title_ = title;
    plot_->setParameter(parameter, unit);
    plot_->setPoints(std::move(points));
    model_->removeRows(0, model_->rowCount());
    const QString name = parameter.isEmpty() ? tr("Value") : parameter;
    model_->horizontalHeaderItem(ValueColumn)
        ->setText(unit.isEmpty() ? name : QStringLiteral("%1 (%2)").arg(name, unit));
    model_->setRowCount(int(plot_->points().size()));
    for (int i = 0; i < int(plot_->points().size()); ++i)
        fillRow(i);
    updateHeader();
}

void SweepView::setPoint(int index, SweepPlot::Point point)
{
    if (index < 0 || size_t(index) >= plot_->points().size()) return;
    plot_->setPoint(index, std::move(point));
    fillRow(index);
    updateHeader();
}

void SweepView::updateHeader()
{
    // The title in bold, the progress after it; the plain text stays in headerText().
    const QString text = headerText();
    const QString title = title_.isEmpty() ? tr("Sweep") : title_;
    header_->setText(QStringLiteral("<b>%1</b>%2")
                         .arg(title.toHtmlEscaped(), text.mid(title.size()).toHtmlEscaped()));
}

QString SweepView::headerText() const
{
    const std::vector<SweepPlot::Point>& pts = plot_->points();
    const auto finished = std::count_if(pts.begin(), pts.end(), [](const SweepPlot::Point& p) {
        return !p.pending() && !p.failed();
    });
    const auto failed =
        std::count_if(pts.begin(), pts.end(), [](const SweepPlot::Point& p) { return p.failed(); });
    const auto pending = qsizetype(pts.size()) - finished - failed;
    QString text = title_.isEmpty() ? tr("Sweep") : title_;
    text += tr("  —  %1: %2 points, %3 finished")
                .arg(plot_->parameterName().isEmpty() ? tr("parameter") : plot_->parameterName())
                .arg(pts.size())
                .arg(finished);
    if (failed > 0) text += tr(", %1 failed").arg(failed);
    if (pending > 0) text += tr(", %1 pending").arg(pending);
    return text;
}

void SweepView::fillRow(int index)
{
    const SweepPlot::Point& pt = plot_->points()[size_t(index)];
    const auto item = [](const QString& text, Qt::Alignment align = Qt::AlignRight) {
        auto* it = new QStandardItem(text);
        it->setTextAlignment(align | Qt::AlignVCenter);
        it->setEditable(false);
        return it;
    };
    model_->setItem(index, ValueColumn, item(plot_->pointLabel(index)));
    model_->setItem(index, RuntimeColumn,
                    item(pt.runtimeNs ? formatDuration(*pt.runtimeNs) : QString()));
    model_->setItem(index, WaitColumn, item(pt.waitNs ? formatDuration(*pt.waitNs) : QString()));
    QStandardItem* status = item(pt.failed()    ? tr("failed: %1").arg(pt.error)
                                 : pt.pending() ? tr("pending")
                                                : tr("done"),
                                 Qt::AlignLeft);
    if (pt.failed()) {
        status->setForeground(SweepPlot::errorColor());
        status->setToolTip(pt.error);
    } else if (pt.pending()) {
        status->setForeground(palette().color(QPalette::PlaceholderText));
    }
    model_->setItem(index, StatusColumn, status);
}

} // namespace rankscope
