#include "app/batch.h"

#include "app/mainwindow.h"
#include "app/report/whatifjson.h"
#include "app/whatifcontroller.h"
#include "whatif/scenario/scenariorun.h"

#include <QEventLoop>
#include <QFile>
#include <cstdio>
#include <memory>

namespace rankscope {

int runBatch(const QString& scenarioFile, bool json)
{
    std::vector<whatif::Scenario> scenarios;
    try {
        scenarios = whatif::readScenarioFile(QFile::encodeName(scenarioFile).toStdString());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rankscope: error: %s\n", e.what());
        return 2;
    }
    MainWindow window;
    window.setInteractive(false); // errors are printed, never shown in a dialog
    WhatIfController* controller = window.whatIf();
    QString lastError;
    QObject::connect(&window, &MainWindow::errorReported, &window,
                     [&](const QString& title, const QString& message) {
                         lastError = title + QStringLiteral(": ") + message;
                     });
    nlohmann::ordered_json all = nlohmann::ordered_json::array();
    int status = 0;
    for (const whatif::Scenario& s : scenarios) {
        std::shared_ptr<const whatif::WhatIfResult> answer;
        bool ended = false, ok = false;
        QEventLoop loop;
        const auto a = QObject::connect(
            controller, &WhatIfController::answered, &loop,
            [&](std::shared_ptr<const whatif::WhatIfResult> r) { answer = std::move(r); });
        const auto b =
            QObject::connect(controller, &WhatIfController::runEnded, &loop, [&](bool success) {
                ended = true;
                ok = success;
                loop.quit();
            });
        lastError.clear();
        controller->start(s);
        if (!ended) loop.exec();
        QObject::disconnect(a);
        QObject::disconnect(b);
        if (!ok || !answer) {
            std::fprintf(stderr, "rankscope: error: scenario '%s': %s\n", s.name.c_str(),
                         lastError.isEmpty() ? "it did not run"
                                             : lastError.toLocal8Bit().constData());
            status = 1;
            continue;
        }
        for (const std::string& w : answer->warnings)
            std::fprintf(stderr, "rankscope: warning: %s\n", w.c_str());
        if (json) {
            all.push_back(whatIfJson(*answer));
        } else {
            const std::string line = whatIfJson(*answer).dump();
            std::printf("%s\n", line.c_str());
        }
    }
    if (json) {
        const std::string text =
            (all.size() == 1 ? all.front() : all)
                .dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
        std::printf("%s\n", text.c_str());
    }
    return status;
}

} // namespace rankscope
