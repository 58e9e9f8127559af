"""The UI's own words, in English and Chinese: one typed table per language.

Review text is never translated; only these labels are. `choose` picks the
table once, before the app starts (`tui.cli` does, from `--lang` or the
locale); everything that draws reads `words()` then, by attribute
(`words().all_tag`, `words().verdict_words[...]`). Binding descriptions are
looked up by binding id (`binding_text`), so the key bar and key panel show
them in the chosen language whatever the description written in the code.

A table is a NamedTuple, not a frozen dataclass: a dataclass compiles its
methods from source when the module is imported, on the way to the first
frame. No Textual here: `prdigest-tui export` uses these words too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple


class Words(NamedTuple):
    """Every word of the UI in one language; `ZH` has exactly the fields of `EN`."""

    language: str
    verdict_words: Mapping[str, str]
    verdict_short: Mapping[str, str]
    section_headings: Mapping[str, str]
    field_names: Mapping[str, str]
    all: str
    unread: str
    tags: str
    reviews: str
    read: str
    not_read: str
    no_review: str
    no_reviews: str
    no_reviews_filtered: str
    problems: str
    no_problems: str
    updated: str
    stale: str
    updated_since_read: str
    updated_hint: str
    updated_banner: str
    change_sep: str
    stale_banner: str
    change_badges: Mapping[str, str]
    checked_count: str
    status_counts: str
    status_problems: tuple[str, str]
    status_loading: str
    change_edited: str
    change_added_n: str
    change_edited_n: str
    change_removed_n: str
    reload_updated: tuple[str, str]
    reload_problem_files: tuple[str, str]
    list_sep: str
    reloaded: str
    marks_arrived: str
    watching: str
    state: str
    filter: str
    filter_none: str
    filter_unchecked: str
    filter_unread: str
    filter_clear_hint: str
    shown_count: tuple[str, str]
    search_placeholder: str
    no_matches: str
    no_search: str
    no_link: str
    bad_link: str
    opening: str
    copied: str
    nothing_to_copy: str
    editor_failed: str
    editor_exit: str
    cannot_suspend: str
    no_file: str
    marked_read: tuple[str, str]
    already_read: str
    undone: tuple[str, str]
    nothing_to_undo: str
    no_unread: str
    actions_title: str
    actions_count: str
    no_actions: str
    scope_all: str
    todo_section_short: Mapping[str, str]
    palette_placeholder: str
    palette_review: str
    palette_tag: str
    palette_review_help: str
    palette_tag_help: str
    palette_view: str
    palette_view_help: str
    palette_mute: str
    palette_unmute: str
    palette_mute_help: str
    palette_unmute_help: str
    muted_tag: str
    unmuted_tag: str
    no_view: str
    repos_heading: str
    notify_title: str
    system_commands: Mapping[str, tuple[str, str]]
    config: str
    config_unreadable: str
    config_invalid_yaml: str
    config_not_mapping: str
    config_unknown_key: str
    config_keymap_not_mapping: str
    config_unknown_binding: str
    config_bad_keys: str
    config_clash: str
    theme_unknown: str
    export_title: str
    export_counts: str
    export_unchecked: str
    export_open: str
    no_such_tag: str
    config_unknown_keys: str
    config_unknown_bindings: str
    config_expected: str
    config_unknown_verdict: str
    config_notify_program: str
    config_view_unknown_tag: str
    config_expected_words: Mapping[str, str]
    config_program_problems: Mapping[str, str]
    status_line: str
    no_such_command: str
    needs_terminal: str
    config_repos_not_mapping: str
    config_bad_repo: str
    config_bad_repo_dir: str
    no_clone: str
    not_a_clone: str
    pr_not_in_clone: str
    ref_missing: str
    ref_ambiguous: str
    code_read_only: str
    no_pr_commit: str
    no_diff: str
    refs_resolving: str
    no_item_refs: str
    no_clone_again: str
    ref_picker_title: str
    code_opened_from: str
    diff_title: str
    file_diff_title: str
    open_failed: str
    bindings: Mapping[str, tuple[str, str]]
    """Binding id -> (description for the key bar, tooltip for the key panel)."""

    def plural(self, forms: tuple[str, str], n: int, **fields: object) -> str:
        """The singular or plural form, formatted with `n` and `fields`."""
        return forms[0 if n == 1 else 1].format(n=f"{n:,}", **fields)

    def binding_text(self, binding_id: str | None, description: str, tooltip: str) -> tuple[str, str]:
        """A binding's description and tooltip in this language."""
        if binding_id is None:
            return description, tooltip
        return self.bindings.get(binding_id, (description, tooltip))

    def field_name(self, name: str) -> str:
        return self.section_headings.get(name) or self.field_names.get(name) or name.replace("_", " ")


EN = Words(
    language="en",
    verdict_words={"deep": "Deep read", "quick": "Quick read", "skim": "Skim", "skip": "Skip"},
    verdict_short={"deep": "deep", "quick": "quick", "skim": "skim", "skip": "skip"},
    section_headings={
        "summary": "Summary",
        "focus": "Focus on",
        "read_order": "Read in order",
        "actions": "What to do",
        "caveats": "Open items",
    },
    field_names={},
    all="All",
    unread="Unread",
    tags="Tags",
    reviews="Reviews",
    read="read",
    not_read="unread",
    no_review="No review selected.",
    no_reviews="No reviews here.",
    no_reviews_filtered="Nothing here. {key} clears the filter.",
    problems="Problems",
    no_problems="No problems: every file loaded.",
    updated="updated",
    stale="stale",
    updated_since_read="Updated since you read it",
    updated_hint="Press {read} to mark it read again.",
    updated_banner="✱ {since}: {what}. {hint}",
    change_sep="; ",
    stale_banner="Its file has a problem: this is the last good version ({problems} lists problems).",
    change_badges={"added": "new", "edited": "edited"},
    checked_count="{done}/{total} checked",
    status_counts="{reviews} reviews · {unread} unread",
    status_problems=("⚠ {n} problem (p)", "⚠ {n} problems (p)"),
    status_loading="loading {done}/{total} files…",
    change_edited="edited",
    change_added_n="{n} added",
    change_edited_n="{n} edited",
    change_removed_n="{n} removed",
    reload_updated=("{n} review updated", "{n} reviews updated"),
    reload_problem_files=("{n} file has a problem", "{n} files have a problem"),
    list_sep=", ",
    reloaded="Reloaded",
    marks_arrived="Marks from {machines}",
    watching="Watching",
    state="State",
    filter="Filter",
    filter_none="none",
    filter_unchecked="unchecked",
    filter_unread="unread",
    filter_clear_hint="{key} clears",
    shown_count=("{n} review", "{n} reviews"),
    search_placeholder="Search titles, text and refs (enter: open the first match, esc: clear)",
    no_matches="No matches.",
    no_search="No search: press {key} to search.",
    no_link="This review has no PR link.",
    bad_link="Not opening {url}: only http and https links are opened.",
    opening="Opening {url}",
    copied="Copied: {text}",
    nothing_to_copy="Nothing to copy: no code ref here and no PR link.",
    editor_failed="Could not run the editor ({editor}): {error}",
    editor_exit="The editor ({editor}) exited with status {code}.",
    cannot_suspend="Cannot hand the terminal to an editor here.",
    no_file="This review's file is gone: {path}",
    marked_read=("{n} review marked read", "{n} reviews marked read"),
    already_read="Every review here is read already.",
    undone=("Undone: {n} review", "Undone: {n} reviews"),
    nothing_to_undo="Nothing to undo.",
    no_unread="Nothing unread here.",
    actions_title="What to do and open items",
    actions_count="{open} open of {total}",
    no_actions="No actions or open items here.",
    scope_all="all reviews",
    todo_section_short={"actions": "do", "caveats": "open"},
    palette_placeholder="A review's title, a tag or an action…",
    palette_review="Review",
    palette_tag="Tag",
    palette_review_help="Go to this review",
    palette_tag_help="Show the reviews with this tag: {unread} unread of {total}",
    palette_view="View",
    palette_view_help="Show the reviews of this saved view: {unread} unread of {total}",
    palette_mute="Mute",
    palette_unmute="Unmute",
    palette_mute_help="Hide its reviews from All, Unread, views and counts until you quit",
    palette_unmute_help="Show its reviews everywhere again",
    muted_tag="Muted {tag}: its reviews are only under it now",
    unmuted_tag="Unmuted {tag}",
    no_view="No view {n}: views come from `views:` in the config",
    repos_heading="Repos",
    notify_title="notify",
    system_commands={},
    config="Config",
    config_unreadable="Cannot read {path}: {error}",
    config_invalid_yaml="{path}: invalid YAML at line {line}, column {column}: {error}",
    config_not_mapping="{path}: expected a mapping (key: value), found {kind}",
    config_unknown_key="{path}: unknown key `{key}` (known: {known})",
    config_keymap_not_mapping="{path}: `keymap` must map binding ids to keys, found {kind}",
    config_unknown_binding="{path}: keymap: unknown binding id `{id}`",
    config_bad_keys="{path}: keymap: `{id}`: not a key: {keys}",
    config_clash="Keymap: {key} is bound to more than one action ({actions})",
    theme_unknown="Theme `{theme}` is not available; using the default.",
    export_title="Reading list",
    export_counts="{shown} reviews, {unread} unread",
    export_unchecked="Not checked yet",
    export_open="Open actions and items",
    no_such_tag="No tag `{tag}`. Tags: {tags}",
    config_unknown_keys="{path}: {n} unknown keys: {keys} (known: {known})",
    config_unknown_bindings="{path}: keymap: {n} unknown binding ids: {ids}",
    config_expected="{path}: `{key}` must be {expected}, found {kind}",
    config_unknown_verdict="{path}: `{key}`: unknown verdict `{verdict}` (known: deep, quick, skim, skip)",
    config_notify_program="{path}: `notify`: `{program}` {problem}",
    config_view_unknown_tag="{path}: view `{view}`: no review has the tag `{tag}`",
    config_expected_words={
        "path": "a path (a file, or a folder ending in /)",
        "mapping": "a mapping",
        "views": "a mapping of view names to filters",
        "view": "a mapping of filters (tags, verdict, repos, unread, unchecked, search)",
        "names": "a list of names",
        "verdicts": "a list of verdicts",
        "bool": "true or false",
        "text": "a string",
        "command": "a program and its arguments, as a list of strings",
    },
    config_program_problems={
        "missing": "is not found (on PATH, or as a path)",
        "not_file": "is not a regular file",
        "not_executable": "is not executable",
    },
    status_line="{unread} unread · {updated} updated",
    no_such_command="prdigest-tui: {name}: no such command or file (commands: check, schema, export, status, refs, locate)",
    needs_terminal="prdigest-tui: the reader needs a terminal, and its {stream} is not one (in a script: prdigest-tui check, export, status or locate)",
    config_repos_not_mapping="{path}: `repos` must map owner/name to a folder, found {kind}",
    config_bad_repo="{path}: repos: `{repo}` is not owner/name",
    config_bad_repo_dir="{path}: repos: `{repo}`: the clone's folder must be text, found {kind}",
    no_clone="No clone of {repo}: map it under `repos:` in {config}, or pass --repo-dir DIR",
    not_a_clone="{path} is not a git work tree",
    pr_not_in_clone="PR #{pr} is not in your clone: git fetch?",
    ref_missing="ref `{ref}` is not in the clone",
    ref_ambiguous="ref `{ref}` is ambiguous: {candidates}",
    code_read_only="{path} as of {commit}, before the PR (read-only)",
    no_pr_commit="No PR commit to show a diff of",
    no_diff="The PR did not change {path}",
    refs_resolving="Looking the refs up in your clone…",
    no_item_refs="No code ref in this item",
    no_clone_again="No clone of {repo} to open refs in",
    ref_picker_title="`{ref}` names {n} places: enter opens one, escape none",
    code_opened_from="· {section} {n}/{total} {box}",
    diff_title="PR #{pr}",
    file_diff_title="PR #{pr}: {path}",
    open_failed="Cannot open {path}: {error}",
    bindings={
        "quit": ("Quit", "Quit prdigest-tui"),
        "pane.next": ("Next pane", "Focus the next pane"),
        "pane.previous": ("Previous pane", "Focus the previous pane"),
        "review.read": ("Read", "Mark the selected review read or unread"),
        "tag.read": ("All read", "Mark every review listed read"),
        "undo": ("Undo", "Undo the last marking (r or R)"),
        "unread.next": ("Next unread", "Go to the next unread review, deep reads first"),
        "unread.previous": ("Previous unread", "Go to the previous unread review"),
        "search": ("Search", "Search titles, text and code refs"),
        "search.next": ("Next match", "Go to the next search match"),
        "search.previous": ("Previous match", "Go to the previous search match"),
        "search.cancel": ("Clear", "Clear the search and close the box"),
        "filter.unread": ("Unread only", "Show only unread reviews"),
        "filter.verdict": ("Verdict", "Show one verdict only: deep, quick, skim, skip, all"),
        "filter.unchecked": ("Unchecked", "Show only reviews with unchecked items"),
        "filter.clear": ("Clear filter", "Clear every filter and the search"),
        "pr.open": ("Open PR", "Open the review's pull request in the browser"),
        "copy": ("Copy", "Copy the code ref under the cursor, or the PR URL"),
        "edit": ("Edit", "Open the review's entry file in $EDITOR"),
        "actions": ("To do", "All open actions and items, across reviews"),
        "problems": ("Problems", "List problems found in entry files"),
        "help": ("Keys", "Show or hide all keys"),
        "back": ("Back", "Back to the review list"),
        "palette": ("palette", "Open the command palette"),
        "reviews.down": ("Down", "Next review"),
        "reviews.up": ("Up", "Previous review"),
        "reviews.page-down": ("Page down", "A page of reviews down"),
        "reviews.page-up": ("Page up", "A page of reviews up"),
        "reviews.first": ("First", "First review"),
        "reviews.last": ("Last", "Last review"),
        "reviews.open": ("Open", "Read the highlighted review"),
        "review.next": ("Next item", "Move to the next checklist item"),
        "review.previous": ("Previous item", "Move to the previous checklist item"),
        "review.toggle": ("Check", "Check or uncheck the item under the cursor"),
        "review.page-down": ("Page down", "Scroll a page down"),
        "review.page-up": ("Page up", "Scroll a page up"),
        "review.top": ("Top", "Scroll to the top"),
        "review.bottom": ("Bottom", "Scroll to the bottom"),
        "tags.down": ("Down", "Next tag"),
        "tags.up": ("Up", "Previous tag"),
        "tags.page-down": ("Page down", "A page of tags down"),
        "tags.page-up": ("Page up", "A page of tags up"),
        "tags.first": ("First", "First tag"),
        "tags.last": ("Last", "Last tag"),
        "tags.open": ("Open", "Go to the tag's reviews"),
        "view.1": ("View 1", "Show the reviews of saved view 1 (views: in the config)"),
        "view.2": ("View 2", "Show the reviews of saved view 2 (views: in the config)"),
        "view.3": ("View 3", "Show the reviews of saved view 3 (views: in the config)"),
        "view.4": ("View 4", "Show the reviews of saved view 4 (views: in the config)"),
        "view.5": ("View 5", "Show the reviews of saved view 5 (views: in the config)"),
        "view.6": ("View 6", "Show the reviews of saved view 6 (views: in the config)"),
        "view.7": ("View 7", "Show the reviews of saved view 7 (views: in the config)"),
        "view.8": ("View 8", "Show the reviews of saved view 8 (views: in the config)"),
        "view.9": ("View 9", "Show the reviews of saved view 9 (views: in the config)"),
        "problems.close": ("Close", "Close the problems view"),
        "problems.down": ("Down", "Next problem"),
        "problems.up": ("Up", "Previous problem"),
        "todo.close": ("Close", "Close this view"),
        "todo.down": ("Down", "Next item"),
        "todo.up": ("Up", "Previous item"),
        "todo.toggle": ("Check", "Check or uncheck the item"),
        "todo.go": ("Go to review", "Close this view and show the item's review"),
        "todo.done": ("Show done", "Show or hide the items already checked"),
        "review.open-ref": ("Open ref", "Open the item's code ref in the code view (again: its next ref)"),
        "code.editor": ("Editor", "Open this file at this line in $EDITOR"),
        "code.check": ("Check", "Check or uncheck the item this file was opened from"),
        "picker.close": ("Close", "Close the list, open nothing"),
        "picker.down": ("Down", "Next place"),
        "picker.up": ("Up", "Previous place"),
        "code.diff": ("Diff", "What the PR changed in this file"),
        "code.pr-diff": ("PR diff", "The whole PR's diff, file by file"),
        "code.back": ("Back", "Back to the review"),
        "diff.next-file": ("Next file", "The next file of the diff"),
        "diff.previous-file": ("Previous file", "The previous file of the diff"),
        "diff.back": ("Back", "Back to the code"),
    },
)

ZH = Words(
    language="zh",
    verdict_words={"deep": "值得精读", "quick": "快速通读", "skim": "快速浏览", "skip": "无需细读"},
    verdict_short={"deep": "精读", "quick": "通读", "skim": "浏览", "skip": "跳过"},
    section_headings={
        "summary": "摘要",
        "focus": "重点关注",
        "read_order": "阅读顺序",
        "actions": "待办",
        "caveats": "未决事项",
    },
    field_names={
        "title": "标题",
        "verdict": "结论",
        "verdict_note": "结论说明",
        "tags": "标签",
        "url": "链接",
        "date": "日期",
    },
    all="全部",
    unread="未读",
    tags="标签",
    reviews="评审",
    read="已读",
    not_read="未读",
    no_review="未选择评审。",
    no_reviews="这里没有评审。",
    no_reviews_filtered="没有符合的评审。按 {key} 清除筛选。",
    problems="问题",
    no_problems="没有问题：所有文件都已加载。",
    updated="已更新",
    stale="过期",
    updated_since_read="读过之后有更新",
    updated_hint="按 {read} 重新标为已读。",
    updated_banner="✱ {since}：{what}。{hint}",
    change_sep="；",
    stale_banner="所在文件有问题：这是最后一个完好的版本（按 {problems} 查看问题）。",
    change_badges={"added": "新", "edited": "已改"},
    checked_count="已勾选 {done}/{total}",
    status_counts="{reviews} 篇评审 · {unread} 篇未读",
    status_problems=("⚠ {n} 个问题 (p)", "⚠ {n} 个问题 (p)"),
    status_loading="正在加载 {done}/{total} 个文件…",
    change_edited="已修改",
    change_added_n="新增 {n} 条",
    change_edited_n="修改 {n} 条",
    change_removed_n="删除 {n} 条",
    reload_updated=("{n} 篇评审有更新", "{n} 篇评审有更新"),
    reload_problem_files=("{n} 个文件有问题", "{n} 个文件有问题"),
    list_sep="，",
    reloaded="已重新加载",
    marks_arrived="来自 {machines} 的标记",
    watching="文件监视",
    state="阅读记录",
    filter="筛选",
    filter_none="无",
    filter_unchecked="有未勾选",
    filter_unread="未读",
    filter_clear_hint="按 {key} 清除",
    shown_count=("{n} 篇", "{n} 篇"),
    search_placeholder="搜索标题、正文和代码引用（回车打开第一个结果，Esc 清除）",
    no_matches="没有匹配。",
    no_search="没有搜索：按 {key} 开始搜索。",
    no_link="这篇评审没有 PR 链接。",
    bad_link="不打开 {url}：只打开 http 和 https 链接。",
    opening="正在打开 {url}",
    copied="已复制：{text}",
    nothing_to_copy="没有可复制的内容：这里没有代码引用，也没有 PR 链接。",
    editor_failed="无法运行编辑器（{editor}）：{error}",
    editor_exit="编辑器（{editor}）退出，状态码 {code}。",
    cannot_suspend="这里无法把终端交给编辑器。",
    no_file="这篇评审的文件已不存在：{path}",
    marked_read=("已将 {n} 篇评审标为已读", "已将 {n} 篇评审标为已读"),
    already_read="这里的评审都已读过。",
    undone=("已撤销：{n} 篇评审", "已撤销：{n} 篇评审"),
    nothing_to_undo="没有可撤销的操作。",
    no_unread="这里没有未读评审。",
    actions_title="待办与未决事项",
    actions_count="未完成 {open} / 共 {total}",
    no_actions="这里没有待办或未决事项。",
    scope_all="全部评审",
    todo_section_short={"actions": "待办", "caveats": "未决"},
    palette_placeholder="评审标题、标签或操作…",
    palette_review="评审",
    palette_tag="标签",
    palette_review_help="转到这篇评审",
    palette_tag_help="显示这个标签下的评审：未读 {unread} / 共 {total}",
    palette_view="视图",
    palette_view_help="显示这个视图的评审：未读 {unread} / 共 {total}",
    palette_mute="屏蔽",
    palette_unmute="取消屏蔽",
    palette_mute_help="在退出前，把它的评审从全部、未读、视图和计数中隐藏",
    palette_unmute_help="让它的评审重新到处显示",
    muted_tag="已屏蔽 {tag}：它的评审现在只在它下面",
    unmuted_tag="已取消屏蔽 {tag}",
    no_view="没有第 {n} 个视图：视图来自配置里的 `views:`",
    repos_heading="仓库",
    notify_title="通知",
    system_commands={
        "Theme": ("主题", "更换配色主题"),
        "Quit": ("退出", "立即退出程序"),
        "Keys": ("按键", "显示或隐藏按键说明"),
        "Maximize": ("最大化", "最大化当前窗格"),
        "Minimize": ("还原", "还原最大化的窗格"),
        "Screenshot": ("截图", "把当前屏幕保存为 SVG 截图"),
    },
    config="配置",
    config_unreadable="无法读取 {path}：{error}",
    config_invalid_yaml="{path}：第 {line} 行第 {column} 列 YAML 无效：{error}",
    config_not_mapping="{path}：应为映射（键: 值），实际是 {kind}",
    config_unknown_key="{path}：未知的键 `{key}`（可用：{known}）",
    config_keymap_not_mapping="{path}：`keymap` 应把按键绑定 id 映射到按键，实际是 {kind}",
    config_unknown_binding="{path}：keymap：未知的绑定 id `{id}`",
    config_bad_keys="{path}：keymap：`{id}`：不是按键：{keys}",
    config_clash="按键映射：{key} 绑定了多个操作（{actions}）",
    theme_unknown="主题 `{theme}` 不可用，改用默认主题。",
    export_title="阅读清单",
    export_counts="{shown} 篇评审，{unread} 篇未读",
    export_unchecked="尚未勾选",
    export_open="待办与未决事项",
    no_such_tag="没有标签 `{tag}`。现有标签：{tags}",
    config_unknown_keys="{path}：{n} 个未知的键：{keys}（可用：{known}）",
    config_unknown_bindings="{path}：keymap：{n} 个未知的绑定 id：{ids}",
    config_expected="{path}：`{key}` 应为{expected}，实际是 {kind}",
    config_unknown_verdict="{path}：`{key}`：未知的结论 `{verdict}`（可用：deep, quick, skim, skip）",
    config_notify_program="{path}：`notify`：`{program}` {problem}",
    config_view_unknown_tag="{path}：视图 `{view}`：没有评审带标签 `{tag}`",
    config_expected_words={
        "path": "路径（文件，或以 / 结尾的文件夹）",
        "mapping": "映射",
        "views": "视图名到筛选条件的映射",
        "view": "筛选条件的映射（tags、verdict、repos、unread、unchecked、search）",
        "names": "名称列表",
        "verdicts": "结论列表",
        "bool": "true 或 false",
        "text": "字符串",
        "command": "程序及其参数组成的字符串列表",
    },
    config_program_problems={
        "missing": "找不到（PATH 中或作为路径）",
        "not_file": "不是普通文件",
        "not_executable": "不可执行",
    },
    status_line="{unread} 未读 · {updated} 有更新",
    no_such_command="prdigest-tui：{name}：没有这个命令或文件（命令：check、schema、export、status、refs、locate）",
    needs_terminal="prdigest-tui：阅读器需要终端，而它的{stream}不是终端（脚本中请用 prdigest-tui check、export、status 或 locate）",
    config_repos_not_mapping="{path}：`repos` 应把 owner/name 映射到文件夹，实际是 {kind}",
    config_bad_repo="{path}：repos：`{repo}` 不是 owner/name",
    config_bad_repo_dir="{path}：repos：`{repo}`：克隆的文件夹应是文本，实际是 {kind}",
    no_clone="没有找到 {repo} 的本地克隆：在 {config} 的 `repos:` 中配置，或使用 --repo-dir DIR",
    not_a_clone="{path} 不是 git 工作区",
    pr_not_in_clone="PR #{pr} 不在你的克隆中：需要 git fetch？",
    ref_missing="引用 `{ref}` 在克隆中找不到",
    ref_ambiguous="引用 `{ref}` 有多个候选：{candidates}",
    code_read_only="{path}（{commit}，PR 之前的版本，只读）",
    no_pr_commit="没有可显示差异的 PR 提交",
    no_diff="该 PR 没有改动 {path}",
    refs_resolving="正在你的克隆中查找引用…",
    no_item_refs="此条目没有代码引用",
    no_clone_again="没有 {repo} 的克隆，无法打开引用",
    ref_picker_title="`{ref}` 对应 {n} 处：回车打开其一，Esc 不打开",
    code_opened_from="· {section} {n}/{total} {box}",
    diff_title="PR #{pr}",
    file_diff_title="PR #{pr}：{path}",
    open_failed="无法打开 {path}：{error}",
    bindings={
        "quit": ("退出", "退出 prdigest-tui"),
        "pane.next": ("下一栏", "切换到下一栏"),
        "pane.previous": ("上一栏", "切换到上一栏"),
        "review.read": ("已读", "把选中的评审标为已读或未读"),
        "tag.read": ("全部已读", "把列出的评审全部标为已读"),
        "undo": ("撤销", "撤销上一次标记（r 或 R）"),
        "unread.next": ("下一篇未读", "转到下一篇未读评审，精读优先"),
        "unread.previous": ("上一篇未读", "转到上一篇未读评审"),
        "search": ("搜索", "搜索标题、正文和代码引用"),
        "search.next": ("下一处", "转到下一处搜索匹配"),
        "search.previous": ("上一处", "转到上一处搜索匹配"),
        "search.cancel": ("清除", "清除搜索并关闭搜索框"),
        "filter.unread": ("仅未读", "只显示未读评审"),
        "filter.verdict": ("结论", "只显示一种结论：精读、通读、浏览、跳过、全部"),
        "filter.unchecked": ("未勾选", "只显示还有未勾选条目的评审"),
        "filter.clear": ("清除筛选", "清除所有筛选和搜索"),
        "pr.open": ("打开 PR", "在浏览器中打开评审的 PR"),
        "copy": ("复制", "复制光标处的代码引用，或 PR 链接"),
        "edit": ("编辑", "用 $EDITOR 打开评审所在的文件"),
        "actions": ("待办", "跨评审列出所有待办与未决事项"),
        "problems": ("问题", "列出条目文件中的问题"),
        "help": ("按键", "显示或隐藏全部按键"),
        "back": ("返回", "回到评审列表"),
        "palette": ("命令", "打开命令面板"),
        "reviews.down": ("下移", "下一篇评审"),
        "reviews.up": ("上移", "上一篇评审"),
        "reviews.page-down": ("下一页", "评审列表下翻一页"),
        "reviews.page-up": ("上一页", "评审列表上翻一页"),
        "reviews.first": ("第一篇", "第一篇评审"),
        "reviews.last": ("最后一篇", "最后一篇评审"),
        "reviews.open": ("打开", "阅读选中的评审"),
        "review.next": ("下一条", "移到下一个清单条目"),
        "review.previous": ("上一条", "移到上一个清单条目"),
        "review.toggle": ("勾选", "勾选或取消光标处的条目"),
        "review.page-down": ("下一页", "向下翻一页"),
        "review.page-up": ("上一页", "向上翻一页"),
        "review.top": ("顶部", "滚动到顶部"),
        "review.bottom": ("底部", "滚动到底部"),
        "tags.down": ("下移", "下一个标签"),
        "tags.up": ("上移", "上一个标签"),
        "tags.page-down": ("下一页", "标签列表下翻一页"),
        "tags.page-up": ("上一页", "标签列表上翻一页"),
        "tags.first": ("第一个", "第一个标签"),
        "tags.last": ("最后一个", "最后一个标签"),
        "tags.open": ("打开", "查看该标签的评审"),
        "view.1": ("视图 1", "显示第 1 个保存的视图（配置里的 views:）"),
        "view.2": ("视图 2", "显示第 2 个保存的视图（配置里的 views:）"),
        "view.3": ("视图 3", "显示第 3 个保存的视图（配置里的 views:）"),
        "view.4": ("视图 4", "显示第 4 个保存的视图（配置里的 views:）"),
        "view.5": ("视图 5", "显示第 5 个保存的视图（配置里的 views:）"),
        "view.6": ("视图 6", "显示第 6 个保存的视图（配置里的 views:）"),
        "view.7": ("视图 7", "显示第 7 个保存的视图（配置里的 views:）"),
        "view.8": ("视图 8", "显示第 8 个保存的视图（配置里的 views:）"),
        "view.9": ("视图 9", "显示第 9 个保存的视图（配置里的 views:）"),
        "problems.close": ("关闭", "关闭问题列表"),
        "problems.down": ("下移", "下一个问题"),
        "problems.up": ("上移", "上一个问题"),
        "todo.close": ("关闭", "关闭此视图"),
        "todo.down": ("下移", "下一条"),
        "todo.up": ("上移", "上一条"),
        "todo.toggle": ("勾选", "勾选或取消该条目"),
        "todo.go": ("转到评审", "关闭此视图并显示条目所在的评审"),
        "todo.done": ("显示已完成", "显示或隐藏已勾选的条目"),
        "review.open-ref": ("打开引用", "在代码视图中打开该条目的代码引用（再按：下一个引用）"),
        "code.editor": ("编辑器", "在 $EDITOR 中打开此文件的这一行"),
        "code.check": ("勾选", "勾选或取消打开此文件的条目"),
        "picker.close": ("关闭", "关闭列表，不打开"),
        "picker.down": ("下移", "下一处"),
        "picker.up": ("上移", "上一处"),
        "code.diff": ("差异", "该 PR 对此文件的改动"),
        "code.pr-diff": ("PR 差异", "整个 PR 的差异，按文件"),
        "code.back": ("返回", "返回评审"),
        "diff.next-file": ("下一个文件", "差异中的下一个文件"),
        "diff.previous-file": ("上一个文件", "差异中的上一个文件"),
        "diff.back": ("返回", "返回代码"),
    },
)

TABLES: Mapping[str, Words] = {"en": EN, "zh": ZH}
LANGUAGES = tuple(TABLES)


class _Choice:
    """The table in use: English until `choose` is called."""

    words: Words = EN


def choose(lang: str | None) -> Words:
    """Use `lang` ("en" or "zh"; "zh_CN.UTF-8" and the like are accepted; else English)."""
    _Choice.words = TABLES[normalize(lang) or "en"]
    return _Choice.words


def words() -> Words:
    """The table chosen."""
    return _Choice.words


def normalize(lang: str | None) -> str | None:
    """ "zh", "zh_CN.UTF-8", "zh-Hans" → "zh"; "en_GB" → "en"; anything else → None."""
    if not lang:
        return None
    base = lang.strip().lower().replace("-", "_").split(".")[0].split("@")[0].split("_")[0]
    return base if base in LANGUAGES else None


def from_environment(environ: Mapping[str, str]) -> str:
    """The language the locale asks for, as POSIX reads it: the first set of
    LC_ALL, LC_MESSAGES, LANG decides; Chinese for zh*, else English."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            return "zh" if value.strip().lower().startswith("zh") else "en"
    return "en"
