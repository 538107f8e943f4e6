#include "views/extrap/fitdetails.h"

#include "views/extrap/extrapfititemmodel.h"
#include "views/extrap/extrapfitplot.h"
#include "views/panes/itemviewtext.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace rankscope {

FitDetails::FitDetails(QWidget* parent)
    : QWidget(parent), heading_(new QLabel(this)), seriesBox_(new QComboBox(this)),
      model_(new ExtrapFitItemModel(this)), proxy_(new QSortFilterProxyModel(this)),
      table_(new QTableView(this)), plot_(new ExtrapFitPlot(this))
{
    heading_->setObjectName(QStringLiteral("modelDetailsHeading"));
    heading_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    seriesBox_->setObjectName(QStringLiteral("seriesBox"));
    seriesBox_->setToolTip(tr("The fitted series to plot; the table lists its candidate models "
                              "(or those of every series)"));
    seriesBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(ExtrapFitItemModel::SortRole);
    proxy_->setFilterRole(ExtrapFitItemModel::SeriesRole);
    proxy_->setFilterKeyColumn(ExtrapFitItemModel::SeriesColumn);
    table_->setModel(proxy_);
    ItemViewText::install(table_);
    table_->setObjectName(QStringLiteral("fitTable"));
    table_->setSortingEnabled(true);
    table_->sortByColumn(ExtrapFitItemModel::GoodnessColumn, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    // The formula takes the spare width; the short columns stay readable without scrolling.
    QHeaderView* header = table_->horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(ExtrapFitItemModel::ModelColumn, QHeaderView::Interactive);
    header->setSectionResizeMode(ExtrapFitItemModel::FormulaColumn, QHeaderView::Stretch);
    header->resizeSection(ExtrapFitItemModel::ModelColumn, 12 * fontMetrics().averageCharWidth());
    table_->setToolTip(tr("Candidate models: pick one to draw its curve (dashed) in the plot"));
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &FitDetails::onRowActivated);
    connect(seriesBox_, &QComboBox::activated, this,
            [this](int i) { selectSeries(seriesBox_->itemData(i).toInt()); });

    auto* top = new QHBoxLayout;
    top->addWidget(heading_, 1);
    top->addWidget(new QLabel(tr("&Series:"), this));
    top->addWidget(seriesBox_);
    static_cast<QLabel*>(top->itemAt(1)->widget())->setBuddy(seriesBox_);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(table_);
    split->addWidget(plot_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(split, 1);
}

void FitDetails::setFits(std::vector<extrap::SeriesFit> fits, double target, bool rankscopeMethod,
                         const QString& heading, std::map<std::string, double> measuredAtTarget)
{
    target_ = target;
    measured_ = std::move(measuredAtTarget);
    heading_->setText(heading);
    model_->setFits(std::move(fits), rankscopeMethod);
    seriesBox_->clear();
    seriesBox_->addItem(tr("All series"), -1);
    int initial = model_->fits().empty() ? -1 : 0;
    for (size_t s = 0; s < model_->fits().size(); ++s) {
        const std::string& q = model_->fits()[s].quantity;
        seriesBox_->addItem(QString::fromStdString(q), int(s));
        if (q == "mean") initial = int(s); // the headline series, when there is one
    }
    selectSeries(initial);
}

void FitDetails::selectSeries(int index)
{
    const int n = int(model_->fits().size());
    if (index >= n) index = -1;
    seriesBox_->setCurrentIndex(std::max(0, seriesBox_->findData(index)));
    proxy_->setFilterRegularExpression(index < 0 ? QString() : QStringLiteral("^%1$").arg(index));
    table_->setColumnHidden(ExtrapFitItemModel::SeriesColumn, index >= 0); // one series: redundant
    showSeries(index < 0 ? (n > 0 ? 0 : -1) : index, -1);
}

void FitDetails::showSeries(int series, int candidate)
{
    if (series < 0) {
        current_ = -1;
        plot_->setSeries(std::nullopt, target_);
        return;
    }
    if (series != current_) {
        current_ = series;
        const extrap::SeriesFit& fit = model_->fits()[size_t(series)];
        const auto m = measured_.find(fit.quantity);
        plot_->setSeries(fit, target_,
                         m == measured_.end() ? std::nullopt : std::optional<double>(m->second));
    }
    plot_->setCandidate(candidate);
}

void FitDetails::onRowActivated()
{
    const QModelIndex i = table_->selectionModel()->currentIndex();
    if (!i.isValid()) return;
    const QModelIndex source = proxy_->mapToSource(i);
    const auto [series, candidate] = model_->entry(source.row());
    showSeries(series, candidate);
}

} // namespace rankscope
