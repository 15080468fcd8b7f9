"""The symbol links of the doc comments name what exists (scripts/check_doc_links.py)."""
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def test_every_symbol_link_of_a_doc_comment_names_a_declaration():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "check_doc_links.py"), ROOT],
                       capture_output=True, text=True)
    assert r.returncode == 0, "doc comments name what does not exist:\n" + r.stdout


def test_the_checker_finds_a_link_to_an_initializer_that_is_gone(tmp_path):
    sources = tmp_path / "Sources" / "M"
    sources.mkdir(parents=True)
    (sources / "A.swift").write_text(
        "/// Made by ``init(project:)``; see ``B`` and `A.make(from:)`.\n"
        "struct A {\n    init(project: Int) {}\n    static func make(from: Int) -> A { A(project: from) }\n}\n"
        "/// Not ``init(project:reusing:)``, nor `A.make(into:)`, nor ``Gone``.\nstruct B {}\n")
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "check_doc_links.py"), str(tmp_path)],
                       capture_output=True, text=True)
    assert r.returncode == 1
    broken = r.stdout.splitlines()
    assert len(broken) == 3, broken
    assert any("init(project:reusing:)" in b for b in broken)
    assert any("A/make(into:)" in b for b in broken)
    assert any("Gone" in b for b in broken)
