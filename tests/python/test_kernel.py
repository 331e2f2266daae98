"""jupyter_kernel_test over the installed nbcuda kernelspec: every test of KernelTests and
IopubWelcomeTests runs, none is skipped (each needs its sample attribute set)."""

import unittest

import jupyter_kernel_test as jkt


class NbcudaKernelTests(jkt.KernelTests):
    kernel_name = "nbcuda"
    language_name = "python"
    file_extension = ".py"

    code_hello_world = "print('hello, world')"
    code_stderr = "import sys; print('oops', file=sys.stderr)"

    completion_samples = [
        {"text": "zi", "matches": {"zip"}},
        {"text": "pri", "matches": {"print"}},
    ]
    complete_code_samples = ["1", "print('hello, world')", "x = [1,\n     2]"]
    incomplete_code_samples = ["print('''hello", "def f(x):", "for i in range(3):"]
    invalid_code_samples = ["import = 7q", ")"]

    code_page_something = "len?"
    code_generate_error = "raise ValueError('boom')"
    code_execute_result = [
        {"code": "1 + 1", "result": "2"},
        {"code": "6 * 7", "result": "42"},
        {"code": "'nb' + 'cuda'", "result": "'nbcuda'"},
    ]
    code_display_data = [
        {
            "code": "from IPython.display import display, HTML\ndisplay(HTML('<b>x</b>'))",
            "mime": "text/html",
        },
        {
            "code": "from IPython.display import display, Markdown\ndisplay(Markdown('*x*'))",
            "mime": "text/markdown",
        },
    ]
    code_history_pattern = "6 *"
    supported_history_operations = ("tail", "range", "search")
    code_inspect_sample = "len"
    code_clear_output = "from IPython.display import clear_output\nclear_output()"


class NbcudaIopubWelcomeTests(jkt.IopubWelcomeTests):
    kernel_name = "nbcuda"
    support_iopub_welcome = True


if __name__ == "__main__":
    unittest.main()
