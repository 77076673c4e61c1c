"""PEP 517 build backend for the root pyproject.toml, the package that pre-commit installs.

That package contains no code: its wheel is metadata only (name, version, and the exact
`skilllint-rs==<version>` requirement), so this backend needs nothing beyond the standard library.
That is the point: with `requires = []` pip downloads no build tool, so installing the hook works
with only the skilllint-rs wheel reachable (an index, or a local folder with PIP_NO_INDEX), and it
takes the time of one wheel download rather than a setuptools install plus a Rust build.

The metadata is read from the `[project]` table of pyproject.toml in the source tree (PEP 517 runs
the hooks there). Python 3.11+ parses it with tomllib; older interpreters use a reader that knows
just the keys this backend uses: double-quoted strings and the `dependencies` array.
"""

import base64
import gzip
import hashlib
import io
import os
import re
import tarfile
import zipfile

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None

# Fixed timestamps make the wheel and sdist the same bytes on every build.
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)
_STRING_KEYS = ("name", "version", "description", "requires-python")
_BACKEND_FILE = "python/shim_backend/skilllint_shim_backend.py"


def _read_project(pyproject_text, use_tomllib=True):
    """The `[project]` keys this backend writes into the metadata."""
    if use_tomllib and tomllib is not None:
        project = tomllib.loads(pyproject_text).get("project", {})
    else:
        project = _read_project_without_tomllib(pyproject_text)
    missing = [key for key in ("name", "version") if not project.get(key)]
    if missing:
        raise ValueError("pyproject.toml [project] lacks " + ", ".join(missing))
    return {
        "name": project["name"],
        "version": project["version"],
        "description": project.get("description", ""),
        "requires-python": project.get("requires-python", ""),
        "dependencies": list(project.get("dependencies", [])),
    }


def _read_project_without_tomllib(text):
    section = re.search(r"^\[project\][ \t]*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    if section is None:
        return {}
    body = "\n".join(
        line for line in section.group(1).splitlines() if not line.lstrip().startswith("#")
    )
    project = {}
    for key, value in re.findall(r'^([A-Za-z-]+)[ \t]*=[ \t]*"([^"]*)"', body, re.M):
        if key in _STRING_KEYS:
            project[key] = value
    dependencies = re.search(r"^dependencies[ \t]*=[ \t]*\[(.*?)\]", body, re.M | re.S)
    if dependencies is not None:
        project["dependencies"] = re.findall(r'"([^"]*)"', dependencies.group(1))
    return project


def _project():
    with open("pyproject.toml", encoding="utf-8") as file:
        return _read_project(file.read())


def _distribution(project):
    """The file-name form of the project name (PEP 427: runs of -_. become one underscore)."""
    return re.sub(r"[-_.]+", "_", project["name"]).lower()


def _metadata(project):
    lines = [
        "Metadata-Version: 2.1",
        "Name: " + project["name"],
        "Version: " + project["version"],
    ]
    if project["description"]:
        lines.append("Summary: " + project["description"])
    if project["requires-python"]:
        lines.append("Requires-Python: " + project["requires-python"])
    lines.extend("Requires-Dist: " + requirement for requirement in project["dependencies"])
    return "\n".join(lines) + "\n"


def _wheel_file():
    return (
        "Wheel-Version: 1.0\n"
        "Generator: skilllint_shim_backend\n"
        "Root-Is-Purelib: true\n"
        "Tag: py3-none-any\n"
    )


def _dist_info(project):
    return "%s-%s.dist-info" % (_distribution(project), project["version"])


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (path, digest, len(data))


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    project = _project()
    dist_info = _dist_info(project)
    os.makedirs(os.path.join(metadata_directory, dist_info), exist_ok=True)
    for name, text in (("METADATA", _metadata(project)), ("WHEEL", _wheel_file())):
        with open(os.path.join(metadata_directory, dist_info, name), "w", encoding="utf-8") as file:
            file.write(text)
    return dist_info


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    project = _project()
    dist_info = _dist_info(project)
    files = [
        (dist_info + "/METADATA", _metadata(project).encode()),
        (dist_info + "/WHEEL", _wheel_file().encode()),
    ]
    record_path = dist_info + "/RECORD"
    record = "".join(_record_line(path, data) + "\n" for path, data in files)
    record += record_path + ",,\n"
    files.append((record_path, record.encode()))
    wheel_name = "%s-%s-py3-none-any.whl" % (_distribution(project), project["version"])
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w") as wheel:
        for path, data in files:
            info = zipfile.ZipInfo(path, date_time=_ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            wheel.writestr(info, data)
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    project = _project()
    base = "%s-%s" % (_distribution(project), project["version"])
    members = [("PKG-INFO", _metadata(project).encode())]
    for path in ("pyproject.toml", _BACKEND_FILE):
        with open(path, "rb") as file:
            members.append((path, file.read()))
    sdist_name = base + ".tar.gz"
    with open(os.path.join(sdist_directory, sdist_name), "wb") as raw, gzip.GzipFile(
        fileobj=raw, mode="wb", mtime=0
    ) as compressed, tarfile.open(fileobj=compressed, mode="w") as sdist:
        for path, data in members:
            info = tarfile.TarInfo(base + "/" + path)
            info.size = len(data)
            info.mode = 0o644
            sdist.addfile(info, io.BytesIO(data))
    return sdist_name
