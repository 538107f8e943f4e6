#pragma once
// An editable copy of a network spec for the what-if panel: a tree of the spec's scalars grouped
// by key path (links > wan > latency), with the edited value and the file's value side by side.
//
// Design note: the model never changes the spec itself. It keeps the spec as read from its file
// and a list of overrides ("links.wan.latency" = "20ms"), exactly like the command line's --set,
// and every edit re-reads the in-memory text with the overrides (NetworkSpec::withOverrides). So
// an edit is checked exactly as the file would be, a bad value is rejected with the reader's
// message naming the key, and the file on disk is never written. Each accepted edit is one
// QUndoCommand holding the override lists before and after.

#include "whatif/netsim/networkspec.h"

#include <QAbstractItemModel>
#include <QString>
#include <memory>
#include <string>
#include <vector>

class QUndoStack;

namespace rankscope {

class SpecItemModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column
    {
        KeyColumn,
        ValueColumn,
        FileValueColumn,
        ColumnCount
    };
    enum Role
    {
        KeyRole = Qt::UserRole + 1, ///< the full key of a leaf ("links.wan.latency"), else empty
        EditedRole,                 ///< bool: the leaf's value differs from the file's
        SuggestionsRole,            ///< QStringList: known values of the key (for a combo editor)
    };

    explicit SpecItemModel(QObject* parent = nullptr);
    ~SpecItemModel() override;

    /// The spec as read from its file (no overrides) and the edits to start from. Clears undo.
    /// Edits the spec rejects are dropped (editRejected says which).
    void setSpec(const netsim::NetworkSpec& fileSpec,
                 std::vector<netsim::SpecOverride> overrides = {});
    bool hasSpec() const { return hasSpec_; }
    const netsim::NetworkSpec& fileSpec() const { return file_; }
    /// fileSpec with every edit applied (re-read and checked by NetworkSpec::withOverrides).
    const netsim::NetworkSpec& edited() const { return edited_; }
    const std::vector<netsim::SpecOverride>& overrides() const { return overrides_; }
    /// The baseline spec's values over the file's (a calibration): shown as edits (bold, the
    /// file's value beside, "calibrated" in the tooltip); the edits apply on top. Keeps undo
    /// (the panel's undo commands call it). overrides() stays the edits alone.
    void setBaseline(std::vector<netsim::SpecOverride> baseline);
    const std::vector<netsim::SpecOverride>& baseline() const { return baseline_; }
    /// Warnings on edits (key -> why; e.g. no message crosses the edited link): a warning icon
    /// and the reason in the value's tooltip. Empty clears them.
    void setEditWarnings(std::vector<std::pair<std::string, std::string>> warnings);
    /// The warning on `key`, or empty.
    QString editWarning(const std::string& key) const;

    /// Sets one key (e.g. "links.wan.latency" = "20ms"). Checked by re-reading the spec with the
    /// override; on error returns false, leaves everything unchanged, sets *error to the reader's
    /// message and emits editRejected. Undoable (one undo command per accepted edit). Setting the
    /// file's own value drops the edit; setting the current value does nothing.
    bool setValue(const std::string& key, const std::string& value, QString* error = nullptr);
    /// Drops the edit of `key` (undoable). resetAll drops every edit (undoable, one command).
    void resetKey(const std::string& key);
    void resetAll();
    QUndoStack* undoStack() const { return undo_; }

    /// The value of `key` in the edited spec, or empty when it has none.
    std::string value(const std::string& key) const;
    /// The value of `key` in the file, or empty when the file has none.
    std::string fileValue(const std::string& key) const;
    /// True when `key` is overridden or differs from the file.
    bool isEdited(const std::string& key) const;
    /// The ValueColumn index of the leaf `key`, or invalid.
    QModelIndex indexOfKey(const std::string& key) const;
    /// What `key` means for the network, for tooltips ("One-way latency of every link of
    /// class wan").
    static QString describeKey(const std::string& key);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    void editRejected(const QString& message);
    void editedChanged(); ///< after any accepted edit, undo, redo or reset

private:
    struct Node;
    class EditCommand;
    friend class EditCommand;

    /// Reads the file spec with `overrides`; on error sets *error (and returns false).
    bool tryRead(const std::vector<netsim::SpecOverride>& overrides, netsim::NetworkSpec& out,
                 QString* error) const;
    /// Pushes one undo command that switches to `overrides` (already checked: `spec`).
    void push(const QString& text, std::vector<netsim::SpecOverride> overrides,
              netsim::NetworkSpec spec);
    /// Makes `overrides` / `spec` current and refreshes the rows (undo commands call this).
    void apply(std::vector<netsim::SpecOverride> overrides, netsim::NetworkSpec spec);
    void rebuild();
    Node* node(const QModelIndex& index) const;
    QStringList suggestions(const std::string& key) const;

    bool hasSpec_ = false;
    netsim::NetworkSpec file_;
    netsim::NetworkSpec edited_;
    std::vector<netsim::SpecOverride> overrides_;
    std::vector<netsim::SpecOverride> baseline_;
    std::vector<std::pair<std::string, std::string>> warnings_;
    std::vector<std::pair<std::string, std::string>> fileValues_;   ///< file order
    std::vector<std::pair<std::string, std::string>> editedValues_; ///< file order, new keys last
    std::unique_ptr<Node> root_;
    QUndoStack* undo_;
};

} // namespace rankscope
