"""docs/make_game_pages.py: the committed game pages are what the code makes now, a stale or
missing page is named by ``--check``, and every registered game has a page."""

import json
import shutil
import xml.etree.ElementTree as ElementTree

import pytest
from checkout_scripts import ROOT, load_script

import envs

pages = load_script("docs/make_game_pages.py")


@pytest.fixture(scope="module")
def expected():
    return pages.expected_files(ROOT)


def test_the_committed_pages_are_what_the_code_makes(expected):
    assert pages.stale(ROOT, expected) == [], "run python docs/make_game_pages.py"


def test_every_registered_game_has_a_page_a_picture_and_a_line_in_the_indexes_and_readme(expected):
    index, readme, start = expected["docs/games/index.md"], expected["README.md"], expected["docs/index.md"]
    for name, (env_id, _, _) in envs.GAMES.items():
        page = expected[f"docs/games/{name}.md"]
        assert f"| Gymnasium id | `{env_id}`" in page
        assert f"`Discrete({envs.make_game(name).info.num_actions})`" in page
        ElementTree.fromstring(expected[f"docs/games/{name}.svg"])  # a well-formed picture
        assert f"({name}.md) | `{env_id}` |" in index
        assert f"(docs/games/{name}.md) | `{env_id}` |" in readme
        assert f"(games/{name}.md) | `{env_id}` |" in start  # one click from the start page
    assert (
        sum(path.endswith(".md") for path in expected) == len(envs.GAMES) + 3
    )  # the pages, the index, README, the start page


def test_check_names_a_stale_and_a_missing_page_and_writing_mends_them(tmp_path, capsys):
    for folder in ("docs/rules", "docs/games", "configs/experiment"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    for report in (ROOT / "docs" / "reports").glob("*/report.json"):
        (tmp_path / report.relative_to(ROOT)).parent.mkdir(parents=True)
        shutil.copy(report, tmp_path / report.relative_to(ROOT))
    shutil.copy(ROOT / "docs" / "rules.md", tmp_path / "docs" / "rules.md")
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    shutil.copy(ROOT / "docs" / "index.md", tmp_path / "docs" / "index.md")
    nex = tmp_path / "docs" / "games" / "nex.md"
    nex.write_text(nex.read_text().replace("Discrete(123)", "Discrete(124)"))
    (tmp_path / "docs" / "games" / "biqala.svg").unlink()
    (tmp_path / "docs" / "games" / "chess.md").write_text("# a game nobody registered\n")

    assert pages.main(["--check"], root=tmp_path) == 1
    message = capsys.readouterr().err
    assert "docs/games/nex.md" in message and "docs/games/biqala.svg" in message
    assert "docs/games/chess.md" in message and "docs/games/hex.md" not in message

    assert pages.main([], root=tmp_path) == 0
    assert capsys.readouterr().out.split("\n")[:3] == [
        "wrote docs/games/nex.md",
        "wrote docs/games/biqala.svg",
        "removed docs/games/chess.md",
    ]
    assert nex.read_text() == (ROOT / "docs" / "games" / "nex.md").read_text()


def test_a_game_without_a_titled_rule_source_is_named():
    sources = [source for source in pages.read_rule_sources(ROOT) if "biqala" not in source.pages]
    with pytest.raises(pages.PageError, match="game 'biqala' needs a title and summary in exactly one rule source"):
        pages.sources_by_game(sources)


def test_a_rule_source_naming_an_unknown_game_is_refused(tmp_path):
    (tmp_path / "docs" / "rules").mkdir(parents=True)
    (tmp_path / "docs" / "rules" / "chess.md").write_text("---\npages:\n  chess: {title: Chess, summary: x}\n---\n")
    with pytest.raises(pages.PageError, match=r"docs/rules/chess.md: names 'chess', which is not a registered game"):
        pages.read_rule_sources(tmp_path)


def test_a_variant_page_shows_its_base_rules_first(expected):
    page = expected["docs/games/progressive_amazons.md"]
    assert page.index("\n## Amazons\n") < page.index("\n## Progressive Amazons = Amazons + 13(4)\n")
    assert "\n## Progressive Amazons" not in expected["docs/games/amazons.md"]


def test_recipes_belong_to_the_game_they_set_build_on_or_are_named_after():
    found = pages.recipes(ROOT)
    assert ("hop_chess", "python train.py game=hop_chess") in [r[:2] for r in found["hop_chess"]]
    assert [r[0] for r in found["nex"]] == ["nex11", "nex3", "nex5"]
    assert [r[:2] for r in found["odoku"]] == [  # odoku_long builds on the odoku recipe
        ("odoku", "python train.py game=odoku"),
        ("odoku_long", "python train.py experiment=odoku_long"),
        ("smoke", "python train.py experiment=smoke"),
    ]
    assert "none" not in {stem for recipes in found.values() for stem, _, _ in recipes}


def test_a_report_headline_agrees_with_its_report_page():
    """The page's headline figures are the report page's own numbers (hex5: written by the same
    code from the same report.json)."""
    report = json.loads((ROOT / "docs" / "reports" / "hex5" / "report.json").read_text())
    figures = dict(pages.headline(report))
    assert figures["seat 0 wins, pie rule off (mcts:256 against mcts:128)"] == "70.0% (60.4%..78.1%)"
    assert figures["Elo per doubling of plain MCTS's search"] == "195 +- 56"
    assert figures["doublings with a significant edge"] == "5 of 5"
    text = (ROOT / "docs" / "reports" / "hex5" / "report.md").read_text()
    assert "| 70.0% (60.4%..78.1%) |" in text and "**195 +- 56**" in text and "**5 of 5**" in text
    command = pages.report_command(report, envs.game_defaults("hex") | {"size": 5})
    assert f"Reproduce the whole report: `{command}`" in text


def test_a_game_without_a_report_a_network_or_a_recipe_says_so_with_the_command_that_makes_one(tmp_path):
    assert "    python evaluate.py mode=report game=biqala budget=quick report_dir=docs/reports/biqala" in (
        pages.report_section("biqala", [])
    )
    assert "    python train.py game=hop_chess" in pages.zoo_section("hop_chess", [], tmp_path)
    assert pages.recipe_section("blockdance", [])[2].startswith("No recipe in `configs/experiment/` trains this game")


def test_a_broken_rule_source_is_one_line_of_error_and_exit_status_2(tmp_path, capsys):
    (tmp_path / "docs" / "rules").mkdir(parents=True)
    (tmp_path / "docs" / "rules" / "hex.md").write_text("## Hex\n")
    assert pages.main(["--check"], root=tmp_path) == 2
    assert (
        capsys.readouterr().err
        == "error: docs/rules/hex.md: no front matter (---, pages: {GAME: {title, summary}}, ---)\n"
    )
