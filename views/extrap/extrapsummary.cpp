#include "views/extrap/extrapsummary.h"

#include "views/extrap/extrapformat.h"
#include "views/panes/durationformat.h"

#include <QCoreApplication>
#include <QStringList>

namespace rankscope {

using extrap::ExtrapolationResult;
using extrap::Method;

namespace {

QString tr(const char* text, const char* disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("rankscope::ExtrapolationSummary", text, disambiguation, n);
}

QString comparison(const ExtrapolationResult& r)
{
    QStringList parts;
    if (r.accuracyPct) parts << tr("accuracy %1").arg(formatAccuracy(*r.accuracyPct));
    if (r.w1Normalized) parts << tr("W1 %1").arg(*r.w1Normalized, 0, 'f', 3);
    return parts.join(QStringLiteral(", "));
}

QString heldOutText(const std::optional<double>& e)
{
    return e ? QStringLiteral("%1 %").arg(*e, 0, 'f', 1) : QStringLiteral("–");
}

QString candidateLabel(const extrap::MethodCandidate& c)
{
    if (c.method == Method::Rankscope) return tr("Rankscope");
    return c.mode == extrap::Mode::Sum ? tr("classic sum") : tr("classic interval");
}

} // namespace

QString methodLabel(const ExtrapolationResult& result)
{
    if (result.method == Method::Rankscope) return tr("Rankscope");
    return result.mode == extrap::Mode::Sum ? tr("Classic (sum mode)")
                                            : tr("Classic (interval mode)");
}

ExtrapolationSummary summarizeExtrapolation(const ExtrapolationRun& run, Method shown)
{
    ExtrapolationSummary s;
    const ExtrapolationResult* r = run.result(shown);
    if (!r) r = run.primary();
    if (!r) return s;
    QStringList scales;
    for (uint32_t n : r->scales)
        scales << QString::number(n);
    QStringList parts;
    parts << tr("Target %1 ranks from %2").arg(r->target).arg(scales.join(QStringLiteral(", ")));
    QStringList scores;
    for (const extrap::MethodCandidate& c : run.candidates)
        scores << tr("%1 %2").arg(candidateLabel(c), heldOutText(c.estimate.heldOutErrorPct));
    if (run.autoChosen)
        if (const ExtrapolationResult* w = run.result(*run.autoChosen)) {
            // The core's reason after its "method: " head: the errors compared and the rule.
            const std::string& why = w->autoReason;
            const size_t colon = why.find(": ");
            parts << (colon == std::string::npos
                          ? tr("Auto chose %1 (held-out error: %2)")
                                .arg(methodLabel(*w), scores.join(QStringLiteral(", ")))
                          : tr("Auto chose %1 (%2)")
                                .arg(methodLabel(*w),
                                     QString::fromStdString(why.substr(colon + 2))));
        }
    parts << tr("%1: max S(r) %2")
                 .arg(methodLabel(*r), formatWithInterval(r->predictedMaxRankDeltaSum,
                                                          r->predictedMaxLow, r->predictedMaxHigh));
    if (r->measuredMaxRankDeltaSum) {
        parts << tr("measured %1").arg(formatDuration(*r->measuredMaxRankDeltaSum));
        if (const QString c = comparison(*r); !c.isEmpty()) parts << c;
        const Method other = r->method == Method::Classic ? Method::Rankscope : Method::Classic;
        if (const ExtrapolationResult* o = run.result(other))
            if (const QString c = comparison(*o); !c.isEmpty())
                parts << tr("%1: %2").arg(methodLabel(*o), c);
    } else {
        parts << tr("no measured trace at %1 ranks").arg(r->target);
    }
    QStringList tip;
    tip << tr("Inputs: %1").arg(run.traceNames.join(QStringLiteral(", ")));
    tip << tr("max S(r): the largest per-rank sum of delta times (computation between MPI calls), "
              "the run time without communication and waiting.")
        << tr("Interval: spans the models the inputs cannot tell apart, the chosen model refitted "
              "without single scales, and twice the noise seen over ranks and iterations.")
        << tr("Held-out error: how far the method's choices miss max S(r) of the largest input "
              "when fitted on the smaller ones; Auto keeps the lowest (within a factor of 2: "
              "Rankscope, then classic sum, then classic interval).")
        << tr("Accuracy: (1 - |predicted - measured| / measured) x 100 of max S(r).")
        << tr("W1: the 1-Wasserstein distance between the predicted and measured S(r) histograms "
              "divided by the measured mean (0: the same shape).");
    if (r->method == Method::Rankscope && !r->sumModel.empty())
        tip << tr("Rankscope's max S(r) comes from the %1 (the lower held-out error of the "
                  "per-interval composition and the direct fit of median plus excess).")
                   .arg(r->sumModel == "direct" ? tr("direct fit")
                                                : tr("per-interval composition"));
    if (!run.measuredName.isEmpty()) tip << tr("Measured: %1").arg(run.measuredName);
    if (!r->missingIntervals.empty()) {
        parts << tr("%n interval(s) not predicted", nullptr, int(r->missingIntervals.size()));
        tip << tr("Not predicted (present at fewer than 3 scales, or only measured):");
        for (const std::string& m : r->missingIntervals)
            tip << QStringLiteral("  ") + QString::fromStdString(m);
    }
    s.text = parts.join(QStringLiteral(" · "));
    s.toolTip = tip.join(QLatin1Char('\n'));
    return s;
}

} // namespace rankscope
