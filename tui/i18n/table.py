"""The fields every language's table has: `Words`, a NamedTuple (not a frozen
dataclass: a dataclass compiles its methods from source when the module is
imported, on the way to the first frame). Its annotations are evaluated, not
strings (no `from __future__ import annotations`): `NamedTuple` compiles a
string annotation into a `ForwardRef`, ~1 ms for its ~150 fields."""

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
    """`{clear}`: the key that clears the search (escape, unless remapped)."""
    no_matches: str
    search_counting: str
    """The count of a search still running: at least `{n}`."""
    search_searching: str
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
    textual_keys: Mapping[str, str]
    """Textual's own key descriptions and tooltips, as the keys panel shows them."""
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
