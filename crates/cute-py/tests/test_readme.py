"""The Python tour of the repository's README.md, run as a doctest: every `>>>` line of its
```python block runs, and what it prints must be what the README shows."""

import doctest
import pathlib

README = pathlib.Path(__file__).resolve().parents[3] / "README.md"


def python_blocks(text):
    blocks, inside, lines = [], False, []
    for line in text.splitlines():
        if not inside and line == "```python":
            inside, lines = True, []
        elif inside and line == "```":
            inside = False
            blocks.append("\n".join(lines) + "\n")
        elif inside:
            lines.append(line)
    return blocks


def test_readme_python_tour_prints_what_it_shows():
    blocks = python_blocks(README.read_text(encoding="utf-8"))
    assert blocks, "README.md has a ```python block"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    examples = 0
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README.md python block {i}", str(README), 0)
        examples += len(test.examples)
        runner.run(test)
    assert examples >= 8, f"{examples} examples"
    assert runner.failures == 0, f"{runner.failures} README examples print something else"
