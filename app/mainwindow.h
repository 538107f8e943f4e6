#pragma once
// The application window: a tab per open trace (or comparison), menus and toolbar with
// shortcuts for everything frequent, a status bar with the current trace's headline numbers
// and, while traces load in the background, a progress bar and a Cancel button.
//
// Errors never throw out of here: they are reported through errorReported() and, when
// interactive, a non-modal message box naming the file.

#include "app/loadedtrace.h"

#include <QMainWindow>
#include <QStringList>

#include <map>

class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QTabWidget;
class QUrl;
class QToolButton;

namespace rankscope {

class ComparisonView;
class ExtrapolateDialog;
class ExtrapolationJob;
class ExtrapolationView;
class TimelineView;
class TraceDocument;
class TraceLoader;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Starts loading `path` (an OTF2 anchor file or its folder). Returns false, after
    /// reporting why, when it clearly is not a trace (missing, or a file not named *.otf2).
    bool openTrace(const QString& path);
    void openTraces(const QStringList& paths);
    /// Opens dropped URLs: local files and folders as traces; anything else is reported.
    void openUrls(const QList<QUrl>& urls);
    /// Adds a tab comparing the traces of document tabs `first` (top) and `second`.
    bool compareTabs(int first, int second);
    /// Saves the current tab's view as PNG or SVG (by suffix).
    bool exportCurrentView(const QString& path, QString* error = nullptr);

    /// Non-interactive (screenshots, scripts): no message boxes, no recent-files updates.
    void setInteractive(bool interactive);
    bool isLoading() const;
    TraceLoader* loader() const { return loader_; }
    QTabWidget* tabs() const { return tabs_; }
    TraceDocument* document(int tab) const;
    ComparisonView* comparison(int tab) const;
    ExtrapolationView* extrapolation(int tab) const;
    ExtrapolationJob* extrapolationJob() const { return extrapolationJob_; }
    /// Opens the non-modal "Extrapolate…" dialog over the open traces and returns it.
    ExtrapolateDialog* showExtrapolateDialog();
    /// The headline shown in the status bar for the current tab.
    QString statusText() const;

signals:
    void errorReported(const QString& title, const QString& message);
    void traceOpened(const QString& path);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void createActions();
    void createMenusAndToolbar();
    void createStatusBar();
    void reportError(const QString& title, const QString& message);
    void onLoaded(const LoadedTrace& trace);
    void onProgress(double fraction);
    void onCurrentTabChanged();
    void closeTab(int index);
    void fillRecentMenu();
    void chooseAndOpen();
    void chooseAndExport();
    void chooseComparison();
    void chooseRankFilter();
    /// The timeline that view actions act on (the focused one in a comparison).
    TimelineView* currentTimeline() const;
    std::vector<TimelineView*> allTimelines() const;
    void applyViewOptions(TimelineView* view) const;
    void updateActions();

    TraceLoader* loader_;
    QTabWidget* tabs_;
    QLabel* traceLabel_ = nullptr;
    QLabel* loadLabel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QToolButton* cancel_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    bool interactive_ = true;
    std::map<QString, quint64> openOrder_; ///< pending loads: absolute path -> order asked for
    quint64 nextOpenOrder_ = 0;

    QAction* openAction_ = nullptr;
    QAction* openFolderAction_ = nullptr;
    QAction* exportAction_ = nullptr;
    QAction* closeTabAction_ = nullptr;
    QAction* quitAction_ = nullptr;
    QAction* zoomInAction_ = nullptr;
    QAction* zoomOutAction_ = nullptr;
    QAction* fitAction_ = nullptr;
    QAction* panLeftAction_ = nullptr;
    QAction* panRightAction_ = nullptr;
    QAction* nextCallAction_ = nullptr;
    QAction* previousCallAction_ = nullptr;
    QAction* messagesAction_ = nullptr;
    QAction* waitsAction_ = nullptr;
    QAction* rankOrderAction_ = nullptr;
    QAction* compareAction_ = nullptr;
    QAction* filterAction_ = nullptr;
    QAction* extrapolateAction_ = nullptr;
    ExtrapolationJob* extrapolationJob_;
};

} // namespace rankscope
