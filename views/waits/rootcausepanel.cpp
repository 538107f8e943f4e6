#include "views/waits/rootcausepanel.h"

#include "model/waits/rootcause.h"
#include "views/panes/durationformat.h"
#include "views/panes/itemviewtext.h"
#include "views/waits/rootcauseitemmodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QStackedLayout>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace rankscope {

RootCausePanel::RootCausePanel(QWidget* parent)
    : QWidget(parent),
      byFunctionRank_(new RootCauseItemModel(RootCauseItemModel::Mode::FunctionRank, this)),
      byCallSite_(new RootCauseItemModel(RootCauseItemModel::Mode::CallSite, this)),
      pages_(new QStackedLayout(this)), placeholder_(new QLabel(this)), statements_(new QLabel),
      tabs_(new QTabWidget)
{
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setWordWrap(true);
    placeholder_->setForegroundRole(QPalette::PlaceholderText);
    pages_->addWidget(placeholder_);

    auto* content = new QWidget(this);
    auto* column = new QVBoxLayout(content);
    column->setContentsMargins(4, 4, 4, 4);
    column->setSpacing(4);
    statements_->setWordWrap(true);
    statements_->setTextFormat(Qt::PlainText);
    statements_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statements_->setToolTip(tr("Hotspot functions whose imbalance explains the most waiting "
                               "at a call site (an upper bound: balancing may move waiting "
                               "elsewhere)"));
    column->addWidget(statements_);
    functionRankTable_ = makeTable(byFunctionRank_, RootCauseItemModel::FunctionColumn);
    callSiteTable_ = makeTable(byCallSite_, RootCauseItemModel::CallSiteColumn);
    tabs_->addTab(functionRankTable_, tr("By function and rank"));
    tabs_->addTab(callSiteTable_, tr("By call site"));
    tabs_->setTabToolTip(0, tr("Waiting charged to a function running late on a rank"));
    tabs_->setTabToolTip(1, tr("Each function's part of the waiting at each call site"));
    column->addWidget(tabs_, 1);
    pages_->addWidget(content);
    setReport(nullptr, nullptr, nullptr);
}

QTableView* RootCausePanel::makeTable(RootCauseItemModel* model, int stretchColumn)
{
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model);
    proxy->setSortRole(RootCauseItemModel::SortRole);
    auto* table = new QTableView;
    table->setModel(proxy);
    ItemViewText::install(table);
    table->setSortingEnabled(true);
    table->sortByColumn(RootCauseItemModel::CostColumn, Qt::DescendingOrder);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setWordWrap(false);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setSectionResizeMode(stretchColumn, QHeaderView::Stretch);
    table->setToolTip(tr("Select a row to show the longest wait it explains; click a header "
                         "to sort"));
    connect(table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this, table, model] { onSelection(table, model); });
    connect(table, &QAbstractItemView::activated, this,
            [this, table, model] { onSelection(table, model); });
    return table;
}

void RootCausePanel::setReport(std::shared_ptr<const Trace> trace,
                               std::shared_ptr<const WaitStateAnalysis> analysis,
                               std::shared_ptr<const RootCauseReport> report)
{
    if (!trace || !report) analysis.reset();
    analysis_ = analysis;
    byFunctionRank_->setReport(trace, analysis, report);
    byCallSite_->setReport(trace, analysis, report);
    placeholder_->setText(!analysis_ ? tr("No root-cause analysis yet")
                                     : tr("No wait states found: no MPI call waited for "
                                          "another rank"));
    // A result summary holds rows, not single waits.
    pages_->setCurrentIndex(
        analysis_ && (!analysis_->waits.empty() || !analysis_->rows.empty()) ? 1 : 0);
    if (!analysis_) {
        statements_->clear();
        return;
    }

    QStringList lines;
    for (const QString& s : byFunctionRank_->statements(3))
        lines << QStringLiteral("• ") + s;
    if (lines.isEmpty())
        lines << tr("No hotspot function explains the waiting: the late ranks did not compute "
                    "longer than the ranks waiting for them");
    const double explained = report->totalWaitNs > 0
                                 ? 100.0 * double(report->explainedNs) / double(report->totalWaitNs)
                                 : 0.0;
    lines << tr("Hotspots explain %1 of %2 waiting (%3%)%4")
                 .arg(formatDuration(double(report->explainedNs)),
                      formatDuration(double(report->totalWaitNs)))
                 .arg(explained, 0, 'f', 1)
                 .arg(report->cancelled ? tr("; analysis cancelled: partial") : QString());
    statements_->setText(lines.join(QLatin1Char('\n')));
}

QString RootCausePanel::statementsText() const
{
    return statements_->text();
}

bool RootCausePanel::showsPlaceholder() const
{
    return pages_->currentIndex() == 0;
}

void RootCausePanel::onSelection(QTableView* table, RootCauseItemModel* model)
{
    const QModelIndexList rows = table->selectionModel()->selectedRows();
    if (rows.isEmpty() || !analysis_) return;
    const auto* proxy = static_cast<const QSortFilterProxyModel*>(table->model());
    const int row = proxy->mapToSource(rows.first()).row();
    const int worst = model->worstWait(row);
    if (worst < 0) return;
    const WaitState& wait = analysis_->waits[size_t(worst)];
    emit waitRequested(wait);
    if (model->mode() == RootCauseItemModel::Mode::FunctionRank)
        emit causeRequested(model->function(row), model->rank(row), wait);
}

} // namespace rankscope
