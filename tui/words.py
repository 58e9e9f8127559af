"""The UI's own words, in English and Chinese, in one place.

Review text is never translated; only these labels are. The words are module
attributes (`words.ALL`, `words.VERDICT_WORDS[...]`) read when something is
drawn, so `set_language` switches the whole UI at once: call it before the app
starts (`tui.cli` does, from `--lang` or the locale). Binding descriptions are
looked up by binding id (`binding_text`), so a footer or key panel can show them
in the chosen language whatever the description written in the code.

No Textual here: `prdigest-tui export` uses these words too.
"""

from __future__ import annotations

from collections.abc import Mapping

LANGUAGES = ("en", "zh")

EN: dict[str, object] = {
    "VERDICT_WORDS": {"deep": "Deep read", "quick": "Quick read", "skim": "Skim", "skip": "Skip"},
    "VERDICT_SHORT": {"deep": "deep", "quick": "quick", "skim": "skim", "skip": "skip"},
    "SECTION_HEADINGS": {
        "summary": "Summary",
        "focus": "Focus on",
        "read_order": "Read in order",
        "actions": "What to do",
        "caveats": "Open items",
    },
    "FIELD_NAMES": {},
    "ALL": "All",
    "UNREAD": "Unread",
    "TAGS": "Tags",
    "REVIEWS": "Reviews",
    "READ": "read",
    "NOT_READ": "unread",
    "NO_REVIEW": "No review selected.",
    "NO_REVIEWS": "No reviews here.",
    "NO_REVIEWS_FILTERED": "Nothing here. {key} clears the filter.",
    "PROBLEMS": "Problems",
    "NO_PROBLEMS": "No problems: every file loaded.",
    "UPDATED": "updated",
    "STALE": "stale",
    "UPDATED_SINCE_READ": "Updated since you read it",
    "UPDATED_HINT": "Press {read} to mark it read again.",
    "UPDATED_BANNER": "✱ {since}: {what}. {hint}",
    "CHANGE_SEP": "; ",
    "STALE_BANNER": "Its file has a problem: this is the last good version ({problems} lists problems).",
    "CHANGE_BADGES": {"added": "new", "edited": "edited"},
    "CHECKED_COUNT": "{done}/{total} checked",
    # status bar
    "STATUS_COUNTS": "{reviews} reviews · {unread} unread",
    "STATUS_PROBLEMS": ("⚠ {n} problem (p)", "⚠ {n} problems (p)"),
    "STATUS_LOADING": "loading {done}/{total} files…",
    # what changed
    "CHANGE_EDITED": "edited",
    "CHANGE_ADDED_N": "{n} added",
    "CHANGE_EDITED_N": "{n} edited",
    "CHANGE_REMOVED_N": "{n} removed",
    "RELOAD_UPDATED": ("{n} review updated", "{n} reviews updated"),
    "RELOAD_PROBLEM_FILES": ("{n} file has a problem", "{n} files have a problem"),
    "LIST_SEP": ", ",
    "RELOADED": "Reloaded",
    "WATCHING": "Watching",
    "STATE": "State",
    # filters and search
    "FILTER": "Filter",
    "FILTER_NONE": "none",
    "FILTER_UNCHECKED": "unchecked",
    "FILTER_UNREAD": "unread",
    "FILTER_CLEAR_HINT": "{key} clears",
    "SHOWN_COUNT": ("{n} review", "{n} reviews"),
    "SEARCH_PLACEHOLDER": "Search titles, text and refs (enter: open the first match, esc: clear)",
    "NO_MATCHES": "No matches.",
    "NO_SEARCH": "No search: press {key} to search.",
    # opening, copying, editing
    "NO_LINK": "This review has no PR link.",
    "BAD_LINK": "Not opening {url}: only http and https links are opened.",
    "OPENING": "Opening {url}",
    "COPIED": "Copied: {text}",
    "NOTHING_TO_COPY": "Nothing to copy: no code ref here and no PR link.",
    "EDITOR_FAILED": "Could not run the editor ({editor}): {error}",
    "EDITOR_EXIT": "The editor ({editor}) exited with status {code}.",
    "CANNOT_SUSPEND": "Cannot hand the terminal to an editor here.",
    "NO_FILE": "This review's file is gone: {path}",
    # marking and undo
    "MARKED_READ": ("{n} review marked read", "{n} reviews marked read"),
    "ALREADY_READ": "Every review here is read already.",
    "UNDONE": ("Undone: {n} review", "Undone: {n} reviews"),
    "NOTHING_TO_UNDO": "Nothing to undo.",
    "NO_UNREAD": "Nothing unread here.",
    # actions and caveats
    "ACTIONS_TITLE": "What to do and open items",
    "ACTIONS_COUNT": "{open} open of {total}",
    "NO_ACTIONS": "No actions or open items here.",
    "SCOPE_ALL": "all reviews",
    "TODO_SECTION_SHORT": {"actions": "do", "caveats": "open"},
    # palette
    "PALETTE_PLACEHOLDER": "A review's title, a tag or an action…",
    "PALETTE_REVIEW": "Review",
    "PALETTE_TAG": "Tag",
    "PALETTE_REVIEW_HELP": "Go to this review",
    "PALETTE_TAG_HELP": "Show the reviews with this tag: {unread} unread of {total}",
    "SYSTEM_COMMANDS": {},
    # config
    "CONFIG": "Config",
    "CONFIG_UNREADABLE": "Cannot read {path}: {error}",
    "CONFIG_INVALID_YAML": "{path}: invalid YAML at line {line}, column {column}: {error}",
    "CONFIG_NOT_MAPPING": "{path}: expected a mapping (key: value), found {kind}",
    "CONFIG_UNKNOWN_KEY": "{path}: unknown key `{key}` (known: {known})",
    "CONFIG_UNKNOWN_KEYS": "{path}: {n} unknown keys: {keys} (known: {known})",
    "CONFIG_KEYMAP_NOT_MAPPING": "{path}: `keymap` must map binding ids to keys, found {kind}",
    "CONFIG_UNKNOWN_BINDING": "{path}: keymap: unknown binding id `{id}`",
    "CONFIG_UNKNOWN_BINDINGS": "{path}: keymap: {n} unknown binding ids: {ids}",
    "CONFIG_BAD_KEYS": "{path}: keymap: `{id}`: not a key: {keys}",
    "CONFIG_CLASH": "Keymap: {key} is bound to more than one action ({actions})",
    "CONFIG_EXPECTED": "{path}: `{key}` must be {expected}, found {kind}",
    "CONFIG_UNKNOWN_VERDICT": "{path}: `{key}`: unknown verdict `{verdict}` (known: deep, quick, skim, skip)",
    "CONFIG_NOTIFY_PROGRAM": "{path}: `notify`: `{program}` {problem}",
    "CONFIG_VIEW_UNKNOWN_TAG": "{path}: view `{view}`: no review has the tag `{tag}`",
    "CONFIG_EXPECTED_WORDS": {
        "mapping": "a mapping",
        "views": "a mapping of view names to filters",
        "view": "a mapping of filters (tags, verdict, repos, unread, unchecked, search)",
        "names": "a list of names",
        "verdicts": "a list of verdicts",
        "bool": "true or false",
        "text": "a string",
        "command": "a program and its arguments, as a list of strings",
    },
    "CONFIG_PROGRAM_PROBLEMS": {
        "missing": "is not found (on PATH, or as a path)",
        "not_file": "is not a regular file",
        "not_executable": "is not executable",
    },
    "STATUS_LINE": "{unread} unread · {updated} updated",
    "THEME_UNKNOWN": "Theme `{theme}` is not available; using the default.",
    # export
    "EXPORT_TITLE": "Reading list",
    "EXPORT_COUNTS": "{shown} reviews, {unread} unread",
    "EXPORT_UNCHECKED": "Not checked yet",
    "EXPORT_OPEN": "Open actions and items",
    "NO_SUCH_TAG": "No tag `{tag}`. Tags: {tags}",
    "NO_SUCH_COMMAND": "prdigest-tui: {name}: no such command or file (commands: check, schema, export, status, refs, locate)",
    "NEEDS_TERMINAL": "prdigest-tui: the reader needs a terminal, and its {stream} is not one "
    "(in a script: prdigest-tui check, export, status or locate)",
    "CONFIG_REPOS_NOT_MAPPING": "{path}: `repos` must map owner/name to a folder, found {kind}",
    "CONFIG_BAD_REPO": "{path}: repos: `{repo}` is not owner/name",
    "CONFIG_BAD_REPO_DIR": "{path}: repos: `{repo}`: the clone's folder must be text, found {kind}",
    "NO_CLONE": "No clone of {repo}: map it under `repos:` in {config}, or pass --repo-dir DIR",
    "NOT_A_CLONE": "{path} is not a git work tree",
    "PR_NOT_IN_CLONE": "PR #{pr} is not in your clone: git fetch?",
    "REF_MISSING": "ref `{ref}` is not in the clone",
    "REF_AMBIGUOUS": "ref `{ref}` is ambiguous: {candidates}",
    "CODE_READ_ONLY": "{path} as of {commit}, before the PR (read-only)",
    "NO_PR_COMMIT": "No PR commit to show a diff of",
    "NO_DIFF": "The PR did not change {path}",
}

ZH: dict[str, object] = {
    "VERDICT_WORDS": {"deep": "值得精读", "quick": "快速通读", "skim": "快速浏览", "skip": "无需细读"},
    "VERDICT_SHORT": {"deep": "精读", "quick": "通读", "skim": "浏览", "skip": "跳过"},
    "SECTION_HEADINGS": {
        "summary": "摘要",
        "focus": "重点关注",
        "read_order": "阅读顺序",
        "actions": "待办",
        "caveats": "未决事项",
    },
    "FIELD_NAMES": {
        "title": "标题",
        "verdict": "结论",
        "verdict_note": "结论说明",
        "tags": "标签",
        "url": "链接",
        "date": "日期",
    },
    "ALL": "全部",
    "UNREAD": "未读",
    "TAGS": "标签",
    "REVIEWS": "评审",
    "READ": "已读",
    "NOT_READ": "未读",
    "NO_REVIEW": "未选择评审。",
    "NO_REVIEWS": "这里没有评审。",
    "NO_REVIEWS_FILTERED": "没有符合的评审。按 {key} 清除筛选。",
    "PROBLEMS": "问题",
    "NO_PROBLEMS": "没有问题：所有文件都已加载。",
    "UPDATED": "已更新",
    "STALE": "过期",
    "UPDATED_SINCE_READ": "读过之后有更新",
    "UPDATED_HINT": "按 {read} 重新标为已读。",
    "UPDATED_BANNER": "✱ {since}：{what}。{hint}",
    "CHANGE_SEP": "；",
    "STALE_BANNER": "所在文件有问题：这是最后一个完好的版本（按 {problems} 查看问题）。",
    "CHANGE_BADGES": {"added": "新", "edited": "已改"},
    "CHECKED_COUNT": "已勾选 {done}/{total}",
    "STATUS_COUNTS": "{reviews} 篇评审 · {unread} 篇未读",
    "STATUS_PROBLEMS": ("⚠ {n} 个问题 (p)", "⚠ {n} 个问题 (p)"),
    "STATUS_LOADING": "正在加载 {done}/{total} 个文件…",
    "CHANGE_EDITED": "已修改",
    "CHANGE_ADDED_N": "新增 {n} 条",
    "CHANGE_EDITED_N": "修改 {n} 条",
    "CHANGE_REMOVED_N": "删除 {n} 条",
    "RELOAD_UPDATED": ("{n} 篇评审有更新", "{n} 篇评审有更新"),
    "RELOAD_PROBLEM_FILES": ("{n} 个文件有问题", "{n} 个文件有问题"),
    "LIST_SEP": "，",
    "RELOADED": "已重新加载",
    "WATCHING": "文件监视",
    "STATE": "阅读记录",
    "FILTER": "筛选",
    "FILTER_NONE": "无",
    "FILTER_UNCHECKED": "有未勾选",
    "FILTER_UNREAD": "未读",
    "FILTER_CLEAR_HINT": "按 {key} 清除",
    "SHOWN_COUNT": ("{n} 篇", "{n} 篇"),
    "SEARCH_PLACEHOLDER": "搜索标题、正文和代码引用（回车打开第一个结果，Esc 清除）",
    "NO_MATCHES": "没有匹配。",
    "NO_SEARCH": "没有搜索：按 {key} 开始搜索。",
    "NO_LINK": "这篇评审没有 PR 链接。",
    "BAD_LINK": "不打开 {url}：只打开 http 和 https 链接。",
    "OPENING": "正在打开 {url}",
    "COPIED": "已复制：{text}",
    "NOTHING_TO_COPY": "没有可复制的内容：这里没有代码引用，也没有 PR 链接。",
    "EDITOR_FAILED": "无法运行编辑器（{editor}）：{error}",
    "EDITOR_EXIT": "编辑器（{editor}）退出，状态码 {code}。",
    "CANNOT_SUSPEND": "这里无法把终端交给编辑器。",
    "NO_FILE": "这篇评审的文件已不存在：{path}",
    "MARKED_READ": ("已将 {n} 篇评审标为已读", "已将 {n} 篇评审标为已读"),
    "ALREADY_READ": "这里的评审都已读过。",
    "UNDONE": ("已撤销：{n} 篇评审", "已撤销：{n} 篇评审"),
    "NOTHING_TO_UNDO": "没有可撤销的操作。",
    "NO_UNREAD": "这里没有未读评审。",
    "ACTIONS_TITLE": "待办与未决事项",
    "ACTIONS_COUNT": "未完成 {open} / 共 {total}",
    "NO_ACTIONS": "这里没有待办或未决事项。",
    "SCOPE_ALL": "全部评审",
    "TODO_SECTION_SHORT": {"actions": "待办", "caveats": "未决"},
    "PALETTE_PLACEHOLDER": "评审标题、标签或操作…",
    "PALETTE_REVIEW": "评审",
    "PALETTE_TAG": "标签",
    "PALETTE_REVIEW_HELP": "转到这篇评审",
    "PALETTE_TAG_HELP": "显示这个标签下的评审：未读 {unread} / 共 {total}",
    "SYSTEM_COMMANDS": {
        "Theme": ("主题", "更换配色主题"),
        "Quit": ("退出", "立即退出程序"),
        "Keys": ("按键", "显示或隐藏按键说明"),
        "Maximize": ("最大化", "最大化当前窗格"),
        "Minimize": ("还原", "还原最大化的窗格"),
        "Screenshot": ("截图", "把当前屏幕保存为 SVG 截图"),
    },
    "CONFIG": "配置",
    "CONFIG_UNREADABLE": "无法读取 {path}：{error}",
    "CONFIG_INVALID_YAML": "{path}：第 {line} 行第 {column} 列 YAML 无效：{error}",
    "CONFIG_NOT_MAPPING": "{path}：应为映射（键: 值），实际是 {kind}",
    "CONFIG_UNKNOWN_KEY": "{path}：未知的键 `{key}`（可用：{known}）",
    "CONFIG_UNKNOWN_KEYS": "{path}：{n} 个未知的键：{keys}（可用：{known}）",
    "CONFIG_KEYMAP_NOT_MAPPING": "{path}：`keymap` 应把按键绑定 id 映射到按键，实际是 {kind}",
    "CONFIG_UNKNOWN_BINDING": "{path}：keymap：未知的绑定 id `{id}`",
    "CONFIG_UNKNOWN_BINDINGS": "{path}：keymap：{n} 个未知的绑定 id：{ids}",
    "CONFIG_BAD_KEYS": "{path}：keymap：`{id}`：不是按键：{keys}",
    "CONFIG_CLASH": "按键映射：{key} 绑定了多个操作（{actions}）",
    "CONFIG_EXPECTED": "{path}：`{key}` 应为{expected}，实际是 {kind}",
    "CONFIG_UNKNOWN_VERDICT": "{path}：`{key}`：未知的结论 `{verdict}`（可用：deep, quick, skim, skip）",
    "CONFIG_NOTIFY_PROGRAM": "{path}：`notify`：`{program}` {problem}",
    "CONFIG_VIEW_UNKNOWN_TAG": "{path}：视图 `{view}`：没有评审带标签 `{tag}`",
    "CONFIG_EXPECTED_WORDS": {
        "mapping": "映射",
        "views": "视图名到筛选条件的映射",
        "view": "筛选条件的映射（tags、verdict、repos、unread、unchecked、search）",
        "names": "名称列表",
        "verdicts": "结论列表",
        "bool": "true 或 false",
        "text": "字符串",
        "command": "程序及其参数组成的字符串列表",
    },
    "CONFIG_PROGRAM_PROBLEMS": {
        "missing": "找不到（PATH 中或作为路径）",
        "not_file": "不是普通文件",
        "not_executable": "不可执行",
    },
    "STATUS_LINE": "{unread} 未读 · {updated} 有更新",
    "THEME_UNKNOWN": "主题 `{theme}` 不可用，改用默认主题。",
    "EXPORT_TITLE": "阅读清单",
    "EXPORT_COUNTS": "{shown} 篇评审，{unread} 篇未读",
    "EXPORT_UNCHECKED": "尚未勾选",
    "EXPORT_OPEN": "待办与未决事项",
    "NO_SUCH_TAG": "没有标签 `{tag}`。现有标签：{tags}",
    "NO_SUCH_COMMAND": "prdigest-tui：{name}：没有这个命令或文件（命令：check、schema、export、status、refs、locate）",
    "NEEDS_TERMINAL": "prdigest-tui：阅读器需要终端，而它的{stream}不是终端（脚本中请用 prdigest-tui check、export、status 或 locate）",
    "CONFIG_REPOS_NOT_MAPPING": "{path}：`repos` 应把 owner/name 映射到文件夹，实际是 {kind}",
    "CONFIG_BAD_REPO": "{path}：repos：`{repo}` 不是 owner/name",
    "CONFIG_BAD_REPO_DIR": "{path}：repos：`{repo}`：克隆的文件夹应是文本，实际是 {kind}",
    "NO_CLONE": "没有找到 {repo} 的本地克隆：在 {config} 的 `repos:` 中配置，或使用 --repo-dir DIR",
    "NOT_A_CLONE": "{path} 不是 git 工作区",
    "PR_NOT_IN_CLONE": "PR #{pr} 不在你的克隆中：需要 git fetch？",
    "REF_MISSING": "引用 `{ref}` 在克隆中找不到",
    "REF_AMBIGUOUS": "引用 `{ref}` 有多个候选：{candidates}",
    "CODE_READ_ONLY": "{path}（{commit}，PR 之前的版本，只读）",
    "NO_PR_COMMIT": "没有可显示差异的 PR 提交",
    "NO_DIFF": "该 PR 没有改动 {path}",
}

# Binding descriptions (footer) and tooltips (key panel), by binding id.
BINDINGS_EN: dict[str, tuple[str, str]] = {
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
    "problems.close": ("Close", "Close the problems view"),
    "problems.down": ("Down", "Next problem"),
    "problems.up": ("Up", "Previous problem"),
    "todo.close": ("Close", "Close this view"),
    "code.editor": ("Editor", "Open this file at this line in $EDITOR"),
    "code.diff": ("Diff", "What the PR changed in this file"),
    "code.pr_diff": ("PR diff", "The whole PR's diff, file by file"),
    "code.back": ("Back", "Back to the review"),
    "diff.next_file": ("Next file", "The next file of the diff"),
    "diff.previous_file": ("Previous file", "The previous file of the diff"),
    "diff.back": ("Back", "Back to the code"),
    "todo.down": ("Down", "Next item"),
    "todo.up": ("Up", "Previous item"),
    "todo.toggle": ("Check", "Check or uncheck the item"),
    "todo.go": ("Go to review", "Close this view and show the item's review"),
    "todo.done": ("Show done", "Show or hide the items already checked"),
}

BINDINGS_ZH: dict[str, tuple[str, str]] = {
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
    "problems.close": ("关闭", "关闭问题列表"),
    "problems.down": ("下移", "下一个问题"),
    "problems.up": ("上移", "上一个问题"),
    "todo.close": ("关闭", "关闭此视图"),
    "code.editor": ("编辑器", "在 $EDITOR 中打开此文件的这一行"),
    "code.diff": ("差异", "该 PR 对此文件的改动"),
    "code.pr_diff": ("PR 差异", "整个 PR 的差异，按文件"),
    "code.back": ("返回", "返回评审"),
    "diff.next_file": ("下一个文件", "差异中的下一个文件"),
    "diff.previous_file": ("上一个文件", "差异中的上一个文件"),
    "diff.back": ("返回", "返回代码"),
    "todo.down": ("下移", "下一条"),
    "todo.up": ("上移", "上一条"),
    "todo.toggle": ("勾选", "勾选或取消该条目"),
    "todo.go": ("转到评审", "关闭此视图并显示条目所在的评审"),
    "todo.done": ("显示已完成", "显示或隐藏已勾选的条目"),
}

TABLES: Mapping[str, dict[str, object]] = {"en": EN, "zh": ZH}
BINDING_TABLES: Mapping[str, dict[str, tuple[str, str]]] = {"en": BINDINGS_EN, "zh": BINDINGS_ZH}

language = "en"

# The English words, bound as attributes for readers and type checkers; set_language rebinds them.
VERDICT_WORDS: dict[str, str] = EN["VERDICT_WORDS"]  # type: ignore[assignment]
VERDICT_SHORT: dict[str, str] = EN["VERDICT_SHORT"]  # type: ignore[assignment]
SECTION_HEADINGS: dict[str, str] = EN["SECTION_HEADINGS"]  # type: ignore[assignment]
FIELD_NAMES: dict[str, str] = EN["FIELD_NAMES"]  # type: ignore[assignment]
CHANGE_BADGES: dict[str, str] = EN["CHANGE_BADGES"]  # type: ignore[assignment]
SYSTEM_COMMANDS: dict[str, tuple[str, str]] = EN["SYSTEM_COMMANDS"]  # type: ignore[assignment]
TODO_SECTION_SHORT: dict[str, str] = EN["TODO_SECTION_SHORT"]  # type: ignore[assignment]
ALL = UNREAD = TAGS = REVIEWS = READ = NOT_READ = NO_REVIEW = NO_REVIEWS = ""
NO_REVIEWS_FILTERED = PROBLEMS = NO_PROBLEMS = UPDATED = STALE = UPDATED_SINCE_READ = ""
UPDATED_HINT = UPDATED_BANNER = CHANGE_SEP = STALE_BANNER = CHECKED_COUNT = STATUS_COUNTS = STATUS_LOADING = (
    ""
)
CHANGE_EDITED = CHANGE_ADDED_N = CHANGE_EDITED_N = CHANGE_REMOVED_N = LIST_SEP = ""
RELOADED = WATCHING = STATE = FILTER = FILTER_NONE = FILTER_UNCHECKED = FILTER_UNREAD = FILTER_CLEAR_HINT = ""
SEARCH_PLACEHOLDER = NO_MATCHES = NO_SEARCH = NO_LINK = BAD_LINK = OPENING = COPIED = ""
NOTHING_TO_COPY = EDITOR_FAILED = EDITOR_EXIT = CANNOT_SUSPEND = NO_FILE = ALREADY_READ = ""
NOTHING_TO_UNDO = NO_UNREAD = ACTIONS_TITLE = ACTIONS_COUNT = NO_ACTIONS = SCOPE_ALL = ""
PALETTE_PLACEHOLDER = PALETTE_REVIEW = PALETTE_TAG = PALETTE_REVIEW_HELP = PALETTE_TAG_HELP = ""
CONFIG = CONFIG_UNREADABLE = CONFIG_INVALID_YAML = CONFIG_NOT_MAPPING = CONFIG_UNKNOWN_KEY = ""
CONFIG_KEYMAP_NOT_MAPPING = CONFIG_UNKNOWN_BINDING = CONFIG_BAD_KEYS = CONFIG_CLASH = ""
CONFIG_UNKNOWN_BINDINGS = CONFIG_UNKNOWN_KEYS = ""
THEME_UNKNOWN = EXPORT_TITLE = EXPORT_COUNTS = EXPORT_UNCHECKED = EXPORT_OPEN = ""
NO_SUCH_COMMAND = NEEDS_TERMINAL = ""
STATUS_LINE = CONFIG_EXPECTED = CONFIG_UNKNOWN_VERDICT = CONFIG_NOTIFY_PROGRAM = CONFIG_VIEW_UNKNOWN_TAG = ""
CONFIG_EXPECTED_WORDS: dict[str, str] = {}
CONFIG_PROGRAM_PROBLEMS: dict[str, str] = {}
NO_SUCH_TAG = NO_CLONE = NOT_A_CLONE = PR_NOT_IN_CLONE = REF_MISSING = REF_AMBIGUOUS = ""
CODE_READ_ONLY = NO_PR_COMMIT = NO_DIFF = ""
CONFIG_REPOS_NOT_MAPPING = CONFIG_BAD_REPO = CONFIG_BAD_REPO_DIR = ""
STATUS_PROBLEMS: tuple[str, str] = ("", "")
RELOAD_UPDATED: tuple[str, str] = ("", "")
RELOAD_PROBLEM_FILES: tuple[str, str] = ("", "")
SHOWN_COUNT: tuple[str, str] = ("", "")
MARKED_READ: tuple[str, str] = ("", "")
UNDONE: tuple[str, str] = ("", "")


def set_language(lang: str) -> None:
    """Switch every word to `lang` ("en" or "zh"; "zh_CN.UTF-8" and the like are accepted)."""
    global language
    language = normalize(lang) or "en"
    globals().update(TABLES[language])


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


def plural(forms: tuple[str, str], n: int, **fields: object) -> str:
    """The singular or plural form, formatted with `n` and `fields`."""
    return forms[0 if n == 1 else 1].format(n=f"{n:,}", **fields)


def binding_text(binding_id: str | None, description: str, tooltip: str) -> tuple[str, str]:
    """A binding's description and tooltip in the current language."""
    if binding_id is None:
        return description, tooltip
    return BINDING_TABLES[language].get(binding_id, (description, tooltip))


def field_name(name: str) -> str:
    return SECTION_HEADINGS.get(name) or FIELD_NAMES.get(name) or name.replace("_", " ")


set_language("en")
