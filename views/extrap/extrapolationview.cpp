#include "views/extrap/extrapolationview.h"

#include "views/extrap/extrapintervalitemmodel.h"
#include "views/extrap/extrapsummary.h"
#include "views/extrap/fitdetails.h"
#include "views/panes/itemviewtext.h"
#include "views/plots/histogramoverlay.h"

#include <QAction>
#include <QActionGroup>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QImage>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QSaveFile>
#include <QSplitter>
#include <QSvgGenerator>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace rankscope {

using extrap::Method;

ExtrapolationView::ExtrapolationView(QWidget* parent)
    : QWidget(parent), run_(std::make_shared<ExtrapolationRun>()),
      model_(new ExtrapIntervalItemModel(this)), list_(new QTableView(this)),
      overlay_(new HistogramOverlay(this)), details_(new FitDetails(this)),
      summary_(new QLabel(this))
{
    auto* bar = new QToolBar(this);
    createToolBar(bar);
    summary_->setObjectName(QStringLiteral("extrapolationSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setContentsMargins(6, 2, 6, 2);

    list_->setObjectName(QStringLiteral("intervalList"));
    list_->setModel(model_);
    ItemViewText::install(list_);
    list_->setSelectionBehavior(QAbstractItemView::SelectRows);
    list_->setSelectionMode(QAbstractItemView::SingleSelection);
    list_->verticalHeader()->hide();
    list_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    list_->setTextElideMode(Qt::ElideMiddle);
    list_->setWordWrap(false);
    list_->horizontalHeader()->setSectionResizeMode(ExtrapIntervalItemModel::NameColumn,
                                                    QHeaderView::Stretch);
    list_->setToolTip(tr("Pick the per-rank sums or an interval to see its histograms and models"));
    connect(list_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ExtrapolationView::refresh);

    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(overlay_);
    right->addWidget(details_);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(list_);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setSizes({440, 1100});

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(bar);
    layout->addWidget(summary_);
    layout->addWidget(split, 1);
}

void ExtrapolationView::createToolBar(QToolBar* bar)
{
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    const auto action = [this](const QString& text, const QString& tip, const QKeySequence& key) {
        auto* a = new QAction(text, this);
        a->setShortcut(key);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        a->setToolTip(QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
        addAction(a);
        return a;
    };
    auto* methods = new QActionGroup(this);
    rankscopeAction_ = action(tr("Rankscope"),
                              tr("Show the Rankscope prediction: per-interval composition, PMNF "
                                 "models, quantile extrapolation"),
                              QKeySequence(Qt::CTRL | Qt::Key_1));
    classicAction_ = action(tr("Classic"),
                            tr("Show the classic (ScalaExtrap) prediction: four models, "
                               "bin-wise histogram fitting"),
                            QKeySequence(Qt::CTRL | Qt::Key_2));
    for (QAction* a : {rankscopeAction_, classicAction_}) {
        a->setCheckable(true);
        methods->addAction(a);
        connect(a, &QAction::triggered, this, [this, a] {
            setMethod(a == classicAction_ ? Method::Classic : Method::Rankscope);
        });
    }
    bar->addWidget(new QLabel(tr("Method: "), bar));
    bar->addAction(rankscopeAction_);
    bar->addAction(classicAction_);
    bar->addSeparator();
    logAction_ = action(tr("Log x"), tr("Logarithmic value axis (zeros at its left edge)"),
                        QKeySequence(Qt::CTRL | Qt::Key_L));
    logAction_->setCheckable(true);
    connect(logAction_, &QAction::toggled, this, &ExtrapolationView::setLogScale);
    bandAction_ = action(tr("Uncertainty band"),
                         tr("Shade the uncertainty interval of the predicted maximum"),
                         QKeySequence(Qt::CTRL | Qt::Key_U));
    bandAction_->setCheckable(true);
    bandAction_->setChecked(true);
    connect(bandAction_, &QAction::toggled, overlay_, &HistogramOverlay::setBandVisible);
    bar->addAction(logAction_);
    bar->addAction(bandAction_);
    bar->addSeparator();
    auto* menu = new QMenu(this);
    menu->setToolTipsVisible(true);
    for (const QString& suffix :
         {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("csv")})
        connect(menu->addAction(tr("%1…").arg(suffix.toUpper())), &QAction::triggered, this,
                [this, suffix] { chooseAndExport(suffix); });
    auto* exportButton = new QToolButton(bar);
    exportButton->setText(tr("Export"));
    exportButton->setToolTip(tr("Save the histogram plot as PNG or SVG, or its bins as CSV"));
    exportButton->setMenu(menu);
    exportButton->setPopupMode(QToolButton::InstantPopup);
    bar->addWidget(exportButton);
}

void ExtrapolationView::setRun(ExtrapolationRun run)
{
    run_ = std::make_shared<ExtrapolationRun>(std::move(run));
    model_->setRun(run_);
    rankscopeAction_->setEnabled(run_->rankscope.has_value());
    classicAction_->setEnabled(run_->classic.has_value());
    (model_->method() == Method::Classic ? classicAction_ : rankscopeAction_)->setChecked(true);
    list_->resizeColumnsToContents();
    list_->horizontalHeader()->setSectionResizeMode(ExtrapIntervalItemModel::NameColumn,
                                                    QHeaderView::Stretch);
    selectRow(0);
    refresh();
}

void ExtrapolationView::setMethod(Method method)
{
    if (!run_->result(method)) return;
    model_->setMethod(method);
    (method == Method::Classic ? classicAction_ : rankscopeAction_)->setChecked(true);
    refresh();
}

Method ExtrapolationView::method() const
{
    return model_->method();
}

void ExtrapolationView::setLogScale(bool log)
{
    if (logAction_->isChecked() != log) logAction_->setChecked(log); // re-enters via toggled
    overlay_->setScale(log ? HistogramAxis::Scale::Log : HistogramAxis::Scale::Linear);
}

void ExtrapolationView::selectRow(int row)
{
    if (row < 0 || row >= model_->rowCount()) return;
    list_->selectionModel()->setCurrentIndex(
        model_->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

int ExtrapolationView::currentRow() const
{
    const QModelIndex i = list_->selectionModel()->currentIndex();
    return i.isValid() ? i.row() : 0;
}

QString ExtrapolationView::summaryText() const
{
    return summary_->text();
}

void ExtrapolationView::refresh()
{
    const ExtrapolationSummary s = summarizeExtrapolation(*run_, model_->method());
    summary_->setText(s.text);
    summary_->setToolTip(s.toolTip);
    if (currentRow() == 0)
        showSums();
    else
        showInterval(currentRow());
}

void ExtrapolationView::showSums()
{
    const extrap::ExtrapolationResult* r = model_->result();
    if (!r) return;
    const QString method = methodLabel(*r);
    overlay_->setTitle(tr("Per-rank delta sums S(r) at %1 ranks, %2").arg(r->target).arg(method));
    overlay_->setXLabel(tr("per-rank delta sum S(r)"));
    overlay_->setHistograms(r->measuredSums, r->predictedSums);
    overlay_->setBand(r->predictedMaxHigh > r->predictedMaxLow
                          ? std::optional(std::pair(r->predictedMaxLow, r->predictedMaxHigh))
                          : std::nullopt);
    overlay_->setComparison(r->accuracyPct, r->w1Normalized);
    const QString heading =
        r->sumFits.empty()
            ? tr("S(r) is composed from the intervals' predictions (no series fitted to the sums "
                 "directly): pick an interval to see its models")
        : r->method == Method::Rankscope
            ? tr("Series of the direct fit of max S(r): the median over ranks, the excess of the "
                 "slowest rank, and the shape (quantile / median)%1")
                  .arg(r->sumModel == "direct" ? QString()
                                               : tr("; the composition of the intervals was "
                                                    "chosen (lower held-out error)"))
            : tr("Series fitted to the S(r) histograms (classic sum mode)");
    details_->setFits(r->sumFits, r->target, r->method == Method::Rankscope, heading);
}

void ExtrapolationView::showInterval(int row)
{
    const extrap::ExtrapolationResult* r = model_->result();
    const extrap::IntervalPrediction* p = model_->interval(row);
    if (!r) return;
    const QString name = model_->intervalName(row);
    if (!p) {
        overlay_->setTitle(tr("%1: not predicted by %2").arg(name, methodLabel(*r)));
        overlay_->setHistograms(std::nullopt, std::nullopt);
        overlay_->setBand(std::nullopt);
        overlay_->setComparison(std::nullopt, std::nullopt);
        details_->setFits({}, r->target, false,
                          tr("The classic method in sum mode fits only the per-rank sums"));
        return;
    }
    const bool rankscope = r->method == Method::Rankscope;
    overlay_->setTitle(tr("%1, %2").arg(name, methodLabel(*r)));
    // The two methods predict different quantities per interval (extrapolation.h).
    overlay_->setXLabel(rankscope ? tr("per-rank total of this interval")
                                  : tr("delta time per occurrence"));
    overlay_->setHistograms(p->measured, p->predicted);
    std::optional<std::pair<double, double>> band;
    if (!p->quantilesLow.empty() && p->quantilesHigh.back() > p->quantilesLow.back())
        band = std::pair(p->quantilesLow.back(), p->quantilesHigh.back());
    overlay_->setBand(band);
    std::optional<double> w1;
    if (p->measured && !p->measured->empty() && !p->predicted.empty())
        w1 = wasserstein1Normalized(p->predicted, *p->measured);
    overlay_->setComparison(ExtrapIntervalItemModel::accuracy(*p), w1);
    std::map<std::string, double> measured;
    if (p->measuredMean) measured["mean"] = *p->measuredMean;
    if (p->measuredCount) measured["count per rank"] = *p->measuredCount;
    details_->setFits(p->fits, r->target, rankscope,
                      tr("%1: chosen model %2").arg(name, QString::fromStdString(p->chosenModel)),
                      measured);
}

void ExtrapolationView::chooseAndExport(const QString& suffix)
{
    const QString filter = suffix == QLatin1String("csv")   ? tr("CSV table (*.csv)")
                           : suffix == QLatin1String("svg") ? tr("SVG drawing (*.svg)")
                                                            : tr("PNG image (*.png)");
    QString path = QFileDialog::getSaveFileName(
        this, tr("Export Histogram"), tr("extrapolation-%1.%2").arg(run_->target).arg(suffix),
        filter);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += QLatin1Char('.') + suffix;
    QString error;
    const bool ok =
        suffix == QLatin1String("csv") ? exportCsv(path, &error) : exportPlot(path, &error);
    if (!ok) summary_->setText(tr("Export failed: %1").arg(error));
}

bool ExtrapolationView::exportPlot(const QString& path, QString* error, QSize size) const
{
    const auto fail = [&](const QString& message) {
        if (error) *error = message;
        return false;
    };
    if (size.isEmpty()) size = overlay_->size().expandedTo(overlay_->minimumSizeHint());
    const QString suffix = QFileInfo(path).suffix().toLower();
    const QRect bounds(QPoint(0, 0), size);
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(bounds);
        svg.setTitle(overlay_->headerText());
        QPainter p;
        if (!p.begin(&svg)) return fail(tr("Cannot write %1.").arg(path));
        overlay_->paintTo(p, bounds);
        p.end();
        return QFileInfo(path).size() > 0 || fail(tr("Cannot write %1.").arg(path));
    }
    if (suffix != QLatin1String("png"))
        return fail(tr("%1: choose a file name ending in .png or .svg.").arg(path));
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter p(&image);
    overlay_->paintTo(p, bounds);
    p.end();
    return image.save(path, "PNG") || fail(tr("Cannot write %1.").arg(path));
}

bool ExtrapolationView::exportCsv(const QString& path, QString* error) const
{
    // QSaveFile: a failed export never leaves a truncated file where a good one was.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text) ||
        file.write(overlay_->toCsv().toUtf8()) < 0 || !file.commit()) {
        if (error) *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace rankscope
