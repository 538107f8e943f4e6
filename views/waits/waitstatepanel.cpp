#include "views/waits/waitstatepanel.h"

#include "views/panes/durationformat.h"
#include "views/panes/itemviewtext.h"
#include "views/waits/waitbarchart.h"
#include "views/waits/waitpalette.h"
#include "views/waits/waitstateitemmodel.h"
#include "views/waits/waitstatepanel_p.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QShortcut>
#include <QSplitter>
#include <QStackedLayout>
#include <QTableView>
#include <QToolButton>

namespace rankscope {

WaitStatePanel::WaitStatePanel(QWidget* parent)
    : QWidget(parent), model_(new WaitStateItemModel(this)),
      filter_(new detail::WaitStateFilter(this)), pages_(new QStackedLayout(this)),
      placeholder_(new QLabel(this)), summary_(new QLabel), patterns_(new QComboBox),
      text_(new QLineEdit), rankButton_(new QToolButton), table_(new QTableView),
      chart_(new WaitBarChart)
{
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setWordWrap(true);
    placeholder_->setForegroundRole(QPalette::PlaceholderText);
    pages_->addWidget(placeholder_);

    auto* content = new QWidget(this);
    auto* column = new QVBoxLayout(content);
    column->setContentsMargins(4, 4, 4, 4);
    column->setSpacing(4);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    column->addWidget(summary_);

    auto* filters = new QHBoxLayout;
    patterns_->setToolTip(tr("Show one wait-state pattern"));
    patterns_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    text_->setPlaceholderText(tr("Filter call site or rank…"));
    text_->setToolTip(tr("Rows whose call site or \"rank N\" contains this text (Ctrl+F)"));
    text_->setClearButtonEnabled(true);
    rankButton_->setToolTip(tr("Only the clicked rank is shown; click or press Esc for all ranks"));
    rankButton_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    rankButton_->hide();
    filters->addWidget(patterns_);
    filters->addWidget(text_, 1);
    filters->addWidget(rankButton_);
    column->addLayout(filters);

    filter_->setSourceModel(model_);
    filter_->setSortRole(WaitStateItemModel::SortRole);
    table_->setModel(filter_);
    ItemViewText::install(table_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(WaitStateItemModel::WaitingColumn, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setWordWrap(false);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(WaitStateItemModel::CallSiteColumn,
                                                     QHeaderView::Stretch);
    table_->setToolTip(tr("Wait states per pattern, call site and rank; select a row to show "
                          "its longest wait"));

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(table_);
    split->addWidget(chart_);
    split->setSizes({620, 380}); // proportions: the table has eight columns to show
    split->setChildrenCollapsible(false);
    column->addWidget(split, 1);
    pages_->addWidget(content);

    connect(patterns_, &QComboBox::currentIndexChanged, this,
            [this] { filter_->setPattern(patterns_->currentData().toInt()); });
    connect(text_, &QLineEdit::textChanged, filter_, &detail::WaitStateFilter::setText);
    connect(rankButton_, &QToolButton::clicked, this, [this] { setRankFilter(RankId()); });
    connect(chart_, &WaitBarChart::rankClicked, this, &WaitStatePanel::setRankFilter);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &WaitStatePanel::onSelection);
    connect(table_, &QAbstractItemView::activated, this, &WaitStatePanel::onSelection);
    auto* find =
        new QShortcut(QKeySequence::Find, this, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    connect(find, &QShortcut::activated, this, [this] {
        text_->setFocus(Qt::ShortcutFocusReason);
        text_->selectAll();
    });
    setAnalysis(nullptr, nullptr);
}

WaitStatePanel::~WaitStatePanel() = default;

QSortFilterProxyModel* WaitStatePanel::proxy() const
{
    return filter_;
}

void WaitStatePanel::setAnalysis(std::shared_ptr<const Trace> trace,
                                 std::shared_ptr<const WaitStateAnalysis> analysis)
{
    if (!trace) analysis.reset();
    analysis_ = analysis;
    clearFilters();
    model_->setAnalysis(trace, analysis);
    chart_->setAnalysis(trace, analysis);
    fillPatterns();
    updateSummary();
    placeholder_->setText(!analysis_ ? tr("No wait-state analysis yet")
                                     : tr("No wait states found: no MPI call waited for "
                                          "another rank"));
    // A result summary holds rows, not single waits.
    pages_->setCurrentIndex(
        analysis_ && (!analysis_->waits.empty() || !analysis_->rows.empty()) ? 1 : 0);
}

void WaitStatePanel::setMpiTimeNs(int64_t ns)
{
    mpiTimeNs_ = ns;
    updateSummary();
}

void WaitStatePanel::fillPatterns()
{
    const QSignalBlocker block(patterns_);
    patterns_->clear();
    patterns_->addItem(tr("All patterns"), -1);
    if (analysis_) {
        for (size_t p = 0; p < kWaitPatternCount; ++p)
            if (analysis_->byPattern[p] > 0)
                patterns_->addItem(WaitStateItemModel::swatch(WaitPattern(p)),
                                   WaitPalette::name(WaitPattern(p)), int(p));
    }
    patterns_->setCurrentIndex(0);
    filter_->setPattern(-1);
}

void WaitStatePanel::updateSummary()
{
    summary_->setText(summaryText());
    if (analysis_) {
        uint64_t count = analysis_->waits.size();
        for (const WaitRow& r : analysis_->rows)
            count += r.occurrences; // a result summary: the rows count the waits
        summary_->setToolTip(
            tr("%1 ns waiting in %2 waits; indirect waiting: the rank waited "
               "for was itself waiting")
                .arg(formatCount(uint64_t(analysis_->totalNs)), formatCount(count)));
    }
}

QString WaitStatePanel::summaryText() const
{
    if (!analysis_) return {};
    QString s = tr("Waiting %1").arg(formatDuration(double(analysis_->totalNs)));
    if (mpiTimeNs_ > 0)
        s += tr(" = %1% of MPI time")
                 .arg(100.0 * double(analysis_->totalNs) / double(mpiTimeNs_), 0, 'f', 1);
    s += tr(" · direct %1 · indirect %2")
             .arg(formatDuration(double(analysis_->directNs)),
                  formatDuration(double(analysis_->indirectNs)));
    if (const int64_t wrong = analysis_->wrongOrderNs[0] + analysis_->wrongOrderNs[1]; wrong > 0)
        s += tr(" · wrong order %1").arg(formatDuration(double(wrong)));
    if (analysis_->cancelled) s += tr(" (analysis cancelled: partial)");
    return s;
}

bool WaitStatePanel::showsPlaceholder() const
{
    return pages_->currentIndex() == 0;
}

void WaitStatePanel::setRankFilter(RankId rank)
{
    filter_->setRank(rank.valid() ? qint64(rank.value) : -1);
    rankButton_->setVisible(rank.valid());
    rankButton_->setText(tr("Rank %1 only ✕").arg(rank.value));
    chart_->setHighlightedRank(rank);
}

RankId WaitStatePanel::rankFilter() const
{
    return filter_->rank() >= 0 ? RankId(uint32_t(filter_->rank())) : RankId();
}

void WaitStatePanel::clearFilters()
{
    patterns_->setCurrentIndex(0);
    text_->clear();
    setRankFilter(RankId());
}

void WaitStatePanel::keyPressEvent(QKeyEvent* e)
{
    // Esc reaches here from the line edit, table and chart, which do not use it themselves.
    if (e->key() == Qt::Key_Escape) {
        clearFilters();
        e->accept();
        return;
    }
    QWidget::keyPressEvent(e);
}

void WaitStatePanel::onSelection()
{
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    if (rows.isEmpty() || !analysis_) return;
    const QModelIndex source = filter_->mapToSource(rows.first());
    const int worst = model_->worstWait(source.row());
    if (worst < 0) return;
    const WaitState& wait = analysis_->waits[size_t(worst)];
    if (!rankFilter().valid()) chart_->setHighlightedRank(wait.rank);
    emit waitRequested(wait);
}

} // namespace rankscope
