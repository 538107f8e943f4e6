#include "app/whatifsimgrid.h"

#include "app/mainwindow.h"
#include "app/tracedocument.h"
#include "app/traceloader.h"
#include "importers/simgrid/simgridengine.h"
#include "model/trace/traceerror.h"
#include "whatif/scenario/scenario.h"

#include <QTabWidget>

namespace rankscope {

namespace {

// Shares of the SimGrid side: both engines (mostly smpirun), then the analysis of its trace.
constexpr double kEnginesShare = 0.85;

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

void runSimGridSide(const WhatIfRequest& request, WhatIfOutcome& out,
                    const ProgressCallback& keepGoing)
{
    const whatif::Scenario& s = request.scenario;
    if (request.baselines.empty() || !request.baselines.front()) {
        out.simgridError = QObject::tr("SimGrid: the baseline trace is not open");
        return;
    }
    bench::SimGridEngineRequest r;
    // The edited spec, exactly as Rankscope's run of the scenario read it (scenarioexec.cpp).
    r.spec = netsim::NetworkSpec::fromString(request.fileSpec.yamlText, request.fileSpec.source,
                                             whatif::allOverrides(s));
    r.options.model = s.model;
    r.options.collectiveAlgorithms = s.collectives;
    r.options.cpuFactor = s.cpuFactor;
    r.source = request.baselineNames.isEmpty() ? s.baselines.front()
                                               : request.baselineNames.front().toStdString();
    const ProgressCallback engines = progressSlice(keepGoing, 0.0, kEnginesShare);
    double fraction = 0;
    r.progress = [&fraction](double f) { fraction = f; };
    r.cancelled = [&] { return engines && !engines(fraction); };
    try {
        auto result = std::make_shared<bench::SimGridEngineResult>(
            bench::runSimGridEngine(*request.baselines.front(), r));
        LoadOutcome analysed = TraceLoader::analyseNow(
            result->simgridTrace, QString(), QObject::tr("SimGrid: %1").arg(qs(s.name)),
            progressSlice(keepGoing, kEnginesShare, 1.0));
        if (analysed.cancelled) {
            out.cancelled = true;
            return;
        }
        if (!analysed.error.isEmpty()) {
            out.simgridError = analysed.error;
            return;
        }
        out.simgridResult = std::move(analysed.loaded);
        out.simgrid = std::move(result);
    } catch (const Cancelled&) {
        out.cancelled = true;
    } catch (const std::bad_alloc&) {
        out.simgridError = QObject::tr("not enough memory for SimGrid's trace");
    } catch (const std::exception& e) {
        out.simgridError = QString::fromLocal8Bit(e.what());
    }
}

std::optional<WhatIfComparison::Engines> enginesOf(const WhatIfOutcome& out)
{
    if (!out.simgrid) return std::nullopt;
    const bench::SimGridEngineResult& r = *out.simgrid;
    WhatIfComparison::Engines e;
    e.model = qs(r.model);
    e.rankscopeNs = r.rankscopeNs;
    e.rankscopeWallSeconds = r.rankscopeWallSeconds;
    e.simgridNs = r.simgridNs;
    e.simgridWallSeconds = r.simgridWallSeconds();
    e.smpirunSeconds = r.smpirunSeconds;
    e.differencePercent = r.differencePercent;
    return e;
}

int openSimGridTab(MainWindow* window, const WhatIfOutcome& out, int after,
                   const char* scenarioProperty)
{
    if (!out.simgridResult.trace) return -1;
    QTabWidget* tabs = window->tabs();
    auto* doc = new TraceDocument(out.simgridResult, tabs);
    window->applyViewOptions(doc->timeline());
    doc->setProperty(scenarioProperty, qs(out.scenario.name));
    const int tab =
        tabs->insertTab(after + 1, doc, QObject::tr("SimGrid: %1").arg(qs(out.scenario.name)));
    QString tip = QObject::tr("SimGrid's predicted trace (smpirun -replay) of %1")
                      .arg(qs(whatif::describe(out.scenario)));
    if (const auto e = enginesOf(out))
        tip += QStringLiteral("\n") + WhatIfComparison::enginesText(*e);
    tabs->setTabToolTip(tab, tip);
    return tab;
}

} // namespace rankscope
