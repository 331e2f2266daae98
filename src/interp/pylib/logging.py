"""Logging: named loggers in a dotted hierarchy under the root logger, levels, handlers
that write formatted records to a stream or a file, and basicConfig. Records go to
sys.stderr unless configured otherwise, as CPython's do, so a cell shows them in its
stderr stream.

Known differences from CPython: no threading locks (a session runs one cell at a time),
no logging.config or logging.handlers, and a record's pathname and line number name the
logging call's caller as nbcuda knows it (the cell), not a file on disk."""

import sys
import time

CRITICAL = 50
FATAL = CRITICAL
ERROR = 40
WARNING = 30
WARN = WARNING
INFO = 20
DEBUG = 10
NOTSET = 0

_levelToName = {CRITICAL: 'CRITICAL', ERROR: 'ERROR', WARNING: 'WARNING',
                INFO: 'INFO', DEBUG: 'DEBUG', NOTSET: 'NOTSET'}
_nameToLevel = {'CRITICAL': CRITICAL, 'FATAL': FATAL, 'ERROR': ERROR, 'WARN': WARNING,
                'WARNING': WARNING, 'INFO': INFO, 'DEBUG': DEBUG, 'NOTSET': NOTSET}

BASIC_FORMAT = "%(levelname)s:%(name)s:%(message)s"
raiseExceptions = True
_startTime = time.time()
_disable_level = NOTSET


def getLevelName(level):
    """The name of a level number, or the number of a level name ('Level N' if neither)."""
    result = _levelToName.get(level)
    if result is not None:
        return result
    result = _nameToLevel.get(level)
    if result is not None:
        return result
    return "Level %s" % level


def getLevelNamesMapping():
    return dict(_nameToLevel)


def addLevelName(level, levelName):
    _levelToName[level] = levelName
    _nameToLevel[levelName] = level


def _checkLevel(level):
    if isinstance(level, int):
        return level
    if isinstance(level, str):
        if level not in _nameToLevel:
            raise ValueError("Unknown level: %r" % level)
        return _nameToLevel[level]
    raise TypeError("Level not an integer or a valid string: %r" % (level,))


class LogRecord:
    """One logging event: who logged what, at which level, when."""

    def __init__(self, name, level, pathname, lineno, msg, args, exc_info,
                 func=None, sinfo=None, **kwargs):
        ct = time.time()
        self.name = name
        self.msg = msg
        if args and len(args) == 1 and isinstance(args[0], dict) and args[0]:
            args = args[0]
        self.args = args
        self.levelname = getLevelName(level)
        self.levelno = level
        self.pathname = pathname
        self.filename = pathname
        self.module = pathname
        self.exc_info = exc_info
        self.exc_text = None
        self.stack_info = sinfo
        self.lineno = lineno
        self.funcName = func
        self.created = ct
        self.msecs = int((ct - int(ct)) * 1000) + 0.0
        self.relativeCreated = (ct - _startTime) * 1000
        self.thread = None
        self.threadName = 'MainThread'
        self.processName = 'MainProcess'
        self.process = None
        self.taskName = None

    def __repr__(self):
        return '<LogRecord: %s, %s, %s, %s, "%s">' % (self.name, self.levelno,
                                                     self.pathname, self.lineno, self.msg)

    def getMessage(self):
        """The message with its arguments merged in, %-style."""
        msg = str(self.msg)
        if self.args:
            msg = msg % self.args
        return msg


def makeLogRecord(dict):
    rv = LogRecord(None, None, "", 0, "", (), None, None)
    rv.__dict__.update(dict)
    return rv


class PercentStyle:
    default_format = '%(message)s'
    asctime_format = '%(asctime)s'
    asctime_search = '%(asctime)'

    def __init__(self, fmt):
        self._fmt = fmt or self.default_format

    def usesTime(self):
        return self._fmt.find(self.asctime_search) >= 0

    def validate(self):
        pass

    def format(self, record):
        return self._fmt % record.__dict__


class StrFormatStyle(PercentStyle):
    default_format = '{message}'
    asctime_format = '{asctime}'
    asctime_search = '{asctime'

    def format(self, record):
        return self._fmt.format(**record.__dict__)


class StringTemplateStyle(PercentStyle):
    default_format = '${message}'
    asctime_format = '${asctime}'
    asctime_search = '${asctime}'

    def usesTime(self):
        return '$asctime' in self._fmt or '${asctime}' in self._fmt

    def format(self, record):
        import string
        return string.Template(self._fmt).substitute(**record.__dict__)


_STYLES = {'%': PercentStyle, '{': StrFormatStyle, '$': StringTemplateStyle}


class Formatter:
    """Turns a record into text: `fmt` names record attributes (%-, {}- or $-style)."""

    default_time_format = '%Y-%m-%d %H:%M:%S'
    default_msec_format = '%s,%03d'

    def __init__(self, fmt=None, datefmt=None, style='%', validate=True, *, defaults=None):
        if style not in _STYLES:
            raise ValueError('Style must be one of: %s' % ','.join(_STYLES.keys()))
        self._style = _STYLES[style](fmt)
        self._fmt = self._style._fmt
        self.datefmt = datefmt

    def formatTime(self, record, datefmt=None):
        ct = time.localtime(record.created)
        if datefmt:
            return time.strftime(datefmt, ct)
        s = time.strftime(self.default_time_format, ct)
        return self.default_msec_format % (s, record.msecs)

    def formatException(self, ei):
        import traceback
        s = ''.join(traceback.format_exception(ei[1]))
        return s[:-1] if s.endswith('\n') else s

    def usesTime(self):
        return self._style.usesTime()

    def formatMessage(self, record):
        return self._style.format(record)

    def formatStack(self, stack_info):
        return stack_info

    def format(self, record):
        record.message = record.getMessage()
        if self.usesTime():
            record.asctime = self.formatTime(record, self.datefmt)
        s = self.formatMessage(record)
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            if s[-1:] != "\n":
                s = s + "\n"
            s = s + record.exc_text
        if record.stack_info:
            if s[-1:] != "\n":
                s = s + "\n"
            s = s + self.formatStack(record.stack_info)
        return s


_defaultFormatter = Formatter()


class Filter:
    """Lets through records from the logger named `name` and its children ('' : all)."""

    def __init__(self, name=''):
        self.name = name
        self.nlen = len(name)

    def filter(self, record):
        if self.nlen == 0 or self.name == record.name:
            return True
        if record.name.find(self.name, 0, self.nlen) != 0:
            return False
        return record.name[self.nlen] == "."


class Filterer:
    def __init__(self):
        self.filters = []

    def addFilter(self, filter):
        if filter not in self.filters:
            self.filters.append(filter)

    def removeFilter(self, filter):
        if filter in self.filters:
            self.filters.remove(filter)

    def filter(self, record):
        for f in self.filters:
            result = f.filter(record) if hasattr(f, 'filter') else f(record)
            if not result:
                return False
            if isinstance(result, LogRecord):
                record = result
        return record


class Handler(Filterer):
    """Where records go; subclasses say how in `emit`."""

    def __init__(self, level=NOTSET):
        Filterer.__init__(self)
        self._name = None
        self.level = _checkLevel(level)
        self.formatter = None

    def get_name(self):
        return self._name

    def set_name(self, name):
        self._name = name

    name = property(get_name, set_name)

    def setLevel(self, level):
        self.level = _checkLevel(level)

    def setFormatter(self, fmt):
        self.formatter = fmt

    def format(self, record):
        return (self.formatter or _defaultFormatter).format(record)

    def emit(self, record):
        raise NotImplementedError('emit must be implemented by Handler subclasses')

    def handle(self, record):
        rv = self.filter(record)
        if isinstance(rv, LogRecord):
            record = rv
        if rv:
            self.emit(record)
        return rv

    def acquire(self):
        pass

    def release(self):
        pass

    def flush(self):
        pass

    def close(self):
        pass

    def handleError(self, record):
        if raiseExceptions:
            sys.stderr.write('--- Logging error ---\n')

    def __repr__(self):
        return '<%s (%s)>' % (self.__class__.__name__, getLevelName(self.level))


class StreamHandler(Handler):
    """Writes each formatted record and a newline to a stream (sys.stderr by default)."""

    terminator = '\n'

    def __init__(self, stream=None):
        Handler.__init__(self)
        self._stream = stream

    @property
    def stream(self):
        # The default follows sys.stderr as it is when a record is written.
        return sys.stderr if self._stream is None else self._stream

    @stream.setter
    def stream(self, value):
        self._stream = value

    def setStream(self, stream):
        old = self._stream
        self._stream = stream
        return old

    def flush(self):
        if hasattr(self.stream, 'flush'):
            self.stream.flush()

    def emit(self, record):
        msg = self.format(record)
        stream = self.stream
        stream.write(msg + self.terminator)
        self.flush()

    def __repr__(self):
        name = getattr(self.stream, 'name', '')
        name = str(name)
        if name:
            name += ' '
        return '<%s %s(%s)>' % (self.__class__.__name__, name, getLevelName(self.level))


class FileHandler(StreamHandler):
    """Appends formatted records to a file (opened at the first record if `delay`)."""

    def __init__(self, filename, mode='a', encoding=None, delay=False, errors=None):
        import os
        self.baseFilename = os.path.abspath(filename)
        self.mode = mode
        self.encoding = encoding
        self.errors = errors
        self.delay = delay
        StreamHandler.__init__(self, None)
        self._file = None if delay else self._open()

    def _open(self):
        return open(self.baseFilename, self.mode, encoding=self.encoding)

    @property
    def stream(self):
        return self._file

    @stream.setter
    def stream(self, value):
        self._file = value

    def emit(self, record):
        if self._file is None:
            self._file = self._open()
        StreamHandler.emit(self, record)

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    def __repr__(self):
        return '<%s %s (%s)>' % (self.__class__.__name__, self.baseFilename,
                                 getLevelName(self.level))


class NullHandler(Handler):
    """Drops every record (for libraries that leave configuration to the application)."""

    def handle(self, record):
        pass

    def emit(self, record):
        pass


class _StderrHandler(StreamHandler):
    def __init__(self, level=NOTSET):
        Handler.__init__(self, level)
        self._stream = None


lastResort = _StderrHandler(WARNING)


class Logger(Filterer):
    """A named channel: records at or above its effective level go to its handlers and,
    while `propagate` holds, to its ancestors' handlers."""

    def __init__(self, name, level=NOTSET):
        Filterer.__init__(self)
        self.name = name
        self.level = _checkLevel(level)
        self.propagate = True
        self.handlers = []
        self.disabled = False
        self._parent = None

    @property
    def parent(self):
        if self._parent is not None:
            return self._parent
        if self is root:
            return None
        return _parent_of(self.name)

    @parent.setter
    def parent(self, value):
        self._parent = value

    @property
    def root(self):
        return root

    def setLevel(self, level):
        self.level = _checkLevel(level)

    def getEffectiveLevel(self):
        logger = self
        while logger:
            if logger.level:
                return logger.level
            logger = logger.parent
        return NOTSET

    def isEnabledFor(self, level):
        if self.disabled or _disable_level >= level:
            return False
        return level >= self.getEffectiveLevel()

    def getChild(self, suffix):
        if self is not root:
            suffix = '.'.join((self.name, suffix))
        return getLogger(suffix)

    def addHandler(self, hdlr):
        if hdlr not in self.handlers:
            self.handlers.append(hdlr)

    def removeHandler(self, hdlr):
        if hdlr in self.handlers:
            self.handlers.remove(hdlr)

    def hasHandlers(self):
        c = self
        while c:
            if c.handlers:
                return True
            if not c.propagate:
                return False
            c = c.parent
        return False

    def debug(self, msg, *args, **kwargs):
        if self.isEnabledFor(DEBUG):
            self._log(DEBUG, msg, args, **kwargs)

    def info(self, msg, *args, **kwargs):
        if self.isEnabledFor(INFO):
            self._log(INFO, msg, args, **kwargs)

    def warning(self, msg, *args, **kwargs):
        if self.isEnabledFor(WARNING):
            self._log(WARNING, msg, args, **kwargs)

    def warn(self, msg, *args, **kwargs):
        self.warning(msg, *args, **kwargs)

    def error(self, msg, *args, **kwargs):
        if self.isEnabledFor(ERROR):
            self._log(ERROR, msg, args, **kwargs)

    def exception(self, msg, *args, exc_info=True, **kwargs):
        self.error(msg, *args, exc_info=exc_info, **kwargs)

    def critical(self, msg, *args, **kwargs):
        if self.isEnabledFor(CRITICAL):
            self._log(CRITICAL, msg, args, **kwargs)

    fatal = critical

    def log(self, level, msg, *args, **kwargs):
        if not isinstance(level, int):
            if raiseExceptions:
                raise TypeError("level must be an integer")
            return
        if self.isEnabledFor(level):
            self._log(level, msg, args, **kwargs)

    def makeRecord(self, name, level, fn, lno, msg, args, exc_info,
                   func=None, extra=None, sinfo=None):
        rv = LogRecord(name, level, fn, lno, msg, args, exc_info, func, sinfo)
        if extra is not None:
            for key in extra:
                if key in ("message", "asctime") or key in rv.__dict__:
                    raise KeyError("Attempt to overwrite %r in LogRecord" % key)
                rv.__dict__[key] = extra[key]
        return rv

    def _log(self, level, msg, args, exc_info=None, extra=None, stack_info=False,
             stacklevel=1):
        if exc_info:
            if isinstance(exc_info, BaseException):
                exc_info = (type(exc_info), exc_info, exc_info.__traceback__)
            elif not isinstance(exc_info, tuple):
                exc_info = sys.exc_info()
        record = self.makeRecord(self.name, level, "<stdin>", 0, msg, args, exc_info,
                                 "<module>", extra, None)
        self.handle(record)

    def handle(self, record):
        if self.disabled:
            return
        rv = self.filter(record)
        if isinstance(rv, LogRecord):
            record = rv
        if rv:
            self.callHandlers(record)

    def callHandlers(self, record):
        c = self
        found = 0
        while c:
            for hdlr in c.handlers:
                found = found + 1
                if record.levelno >= hdlr.level:
                    hdlr.handle(record)
            if not c.propagate:
                c = None
            else:
                c = c.parent
        if found == 0:
            if lastResort:
                if record.levelno >= lastResort.level:
                    lastResort.handle(record)

    def __repr__(self):
        return '<%s %s (%s)>' % (self.__class__.__name__, self.name,
                                 getLevelName(self.getEffectiveLevel()))


class RootLogger(Logger):
    def __init__(self, level):
        Logger.__init__(self, "root", level)


root = RootLogger(WARNING)
Logger.root = root
_loggers = {}
_loggerClass = Logger


def _parent_of(name):
    # The nearest existing ancestor by dotted name; loggers are looked up as they are
    # now, so a parent created after its child is found as CPython's placeholders find it.
    i = name.rfind(".")
    while i > 0:
        p = _loggers.get(name[:i])
        if p is not None:
            return p
        i = name.rfind(".", 0, i)
    return root


def setLoggerClass(klass):
    global _loggerClass
    if klass != Logger and not issubclass(klass, Logger):
        raise TypeError("logger not derived from logging.Logger: " + klass.__name__)
    _loggerClass = klass


def getLoggerClass():
    return _loggerClass


def getLogger(name=None):
    """The logger of that dotted name, made on first use (the root logger for None)."""
    if not name or isinstance(name, str) and name == root.name:
        return root
    if not isinstance(name, str):
        raise TypeError('A logger name must be a string')
    rv = _loggers.get(name)
    if rv is None:
        rv = _loggerClass(name)
        _loggers[name] = rv
    return rv


class LoggerAdapter:
    def __init__(self, logger, extra=None):
        self.logger = logger
        self.extra = extra

    def process(self, msg, kwargs):
        kwargs["extra"] = self.extra
        return msg, kwargs

    def log(self, level, msg, *args, **kwargs):
        if self.logger.isEnabledFor(level):
            msg, kwargs = self.process(msg, kwargs)
            self.logger.log(level, msg, *args, **kwargs)

    def debug(self, msg, *args, **kwargs):
        self.log(DEBUG, msg, *args, **kwargs)

    def info(self, msg, *args, **kwargs):
        self.log(INFO, msg, *args, **kwargs)

    def warning(self, msg, *args, **kwargs):
        self.log(WARNING, msg, *args, **kwargs)

    def error(self, msg, *args, **kwargs):
        self.log(ERROR, msg, *args, **kwargs)

    def critical(self, msg, *args, **kwargs):
        self.log(CRITICAL, msg, *args, **kwargs)

    def isEnabledFor(self, level):
        return self.logger.isEnabledFor(level)

    def setLevel(self, level):
        self.logger.setLevel(level)

    def getEffectiveLevel(self):
        return self.logger.getEffectiveLevel()


def basicConfig(**kwargs):
    """Give the root logger a handler (a stream, sys.stderr by default, or a file) and a
    format, unless it has one already (`force=True` replaces it)."""
    force = kwargs.pop('force', False)
    encoding = kwargs.pop('encoding', None)
    errors = kwargs.pop('errors', 'backslashreplace')
    if force:
        for h in root.handlers[:]:
            root.removeHandler(h)
            h.close()
    if len(root.handlers) == 0:
        handlers = kwargs.pop("handlers", None)
        if handlers is None:
            if "stream" in kwargs and "filename" in kwargs:
                raise ValueError("'stream' and 'filename' should not be specified together")
        else:
            if "stream" in kwargs or "filename" in kwargs:
                raise ValueError("'stream' or 'filename' should not be specified together "
                                 "with 'handlers'")
        if handlers is None:
            filename = kwargs.pop("filename", None)
            mode = kwargs.pop("filemode", 'a')
            if filename:
                h = FileHandler(filename, mode, encoding=encoding)
            else:
                h = StreamHandler(kwargs.pop("stream", None))
            handlers = [h]
        dfs = kwargs.pop("datefmt", None)
        style = kwargs.pop("style", '%')
        if style not in _STYLES:
            raise ValueError('Style must be one of: %s' % ','.join(_STYLES.keys()))
        fs = kwargs.pop("format", _STYLES[style](None).default_format
                        if style != '%' else BASIC_FORMAT)
        fmt = Formatter(fs, dfs, style)
        for h in handlers:
            if h.formatter is None:
                h.setFormatter(fmt)
            root.addHandler(h)
        level = kwargs.pop("level", None)
        if level is not None:
            root.setLevel(level)
        if kwargs:
            keys = ', '.join(kwargs.keys())
            raise ValueError('Unrecognised argument(s): %s' % keys)


def _root_ready():
    if len(root.handlers) == 0:
        basicConfig()


def critical(msg, *args, **kwargs):
    _root_ready()
    root.critical(msg, *args, **kwargs)


fatal = critical


def error(msg, *args, **kwargs):
    _root_ready()
    root.error(msg, *args, **kwargs)


def exception(msg, *args, exc_info=True, **kwargs):
    error(msg, *args, exc_info=exc_info, **kwargs)


def warning(msg, *args, **kwargs):
    _root_ready()
    root.warning(msg, *args, **kwargs)


def warn(msg, *args, **kwargs):
    warning(msg, *args, **kwargs)


def info(msg, *args, **kwargs):
    _root_ready()
    root.info(msg, *args, **kwargs)


def debug(msg, *args, **kwargs):
    _root_ready()
    root.debug(msg, *args, **kwargs)


def log(level, msg, *args, **kwargs):
    _root_ready()
    root.log(level, msg, *args, **kwargs)


def disable(level=CRITICAL):
    global _disable_level
    _disable_level = _checkLevel(level)


def shutdown(handlerList=None):
    for h in list(root.handlers):
        h.flush()
        h.close()


def captureWarnings(capture):
    pass
