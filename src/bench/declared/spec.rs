//! A declared benchmark's spec, read from its TOML file (docs/format.md, "Declared
//! benchmarks"): its fields, its responses and its questions. Every mistake is reported,
//! each with its line and key, not only the first.

use std::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::question::{Kind, Per, Points, Question};

/// A declared benchmark: what each item shows and what the reviewer answers.
#[derive(Debug, Clone, PartialEq)]
pub struct Declared {
    pub name: String,
    pub guidelines: Option<String>,
    /// Shown in this order.
    pub fields: Vec<Field>,
    pub responses: Option<Responses>,
    pub questions: Vec<Question>,
}

/// One field of the item, shown as its kind says.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// A key, a dotted path (`meta.source`, `turns.0`) or a JSON pointer (`/meta/source`).
    pub path: String,
    pub kind: FieldKind,
    /// Its heading on screen (the path when not given).
    pub label: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    Text,
    Image,
    Number,
    Chat,
    List,
}

/// Where the item's responses are: a list of objects, each a model's.
#[derive(Debug, Clone, PartialEq)]
pub struct Responses {
    pub path: String,
    /// The key of a response's model name.
    pub model: String,
    /// The key of a response's text.
    pub text: String,
}

/// One mistake in a spec: its line (1-based), the key it is about, what is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct SpecError {
    pub line: usize,
    pub key: String,
    pub message: String,
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        if self.key.is_empty() {
            write!(f, "line {}: {}", self.line, self.message)
        } else {
            write!(f, "line {}: {}: {}", self.line, self.key, self.message)
        }
    }
}

const FIELD_KINDS: [(&str, FieldKind); 5] = [
    ("text", FieldKind::Text),
    ("image", FieldKind::Image),
    ("number", FieldKind::Number),
    ("chat", FieldKind::Chat),
    ("list", FieldKind::List),
];

type Table<'i> = DeTable<'i>;
type Val<'i> = Spanned<DeValue<'i>>;

/// Reads a spec's tables, collecting every mistake.
struct Reader<'s> {
    src: &'s str,
    errors: Vec<SpecError>,
}

impl<'s> Reader<'s> {
    fn error(&mut self, span: Range<usize>, key: &str, message: impl Into<String>) {
        let line = self.src[..span.start.min(self.src.len())]
            .matches('\n')
            .count()
            + 1;
        self.errors.push(SpecError {
            line,
            key: key.to_string(),
            message: message.into(),
        });
    }

    /// Report the keys of `t` not among `known`.
    fn only(&mut self, t: &Table, known: &[&str], at: &str) {
        for (k, _) in t.iter() {
            let name: &str = k.get_ref();
            if !known.contains(&name) {
                self.error(
                    k.span(),
                    &join(at, k.get_ref()),
                    format!("unknown key (known: {})", known.join(", ")),
                );
            }
        }
    }

    fn string(&mut self, t: &Table, key: &str, at: &str) -> Option<(String, Range<usize>)> {
        let v = t.get(key)?;
        match v.get_ref() {
            DeValue::String(s) => Some((s.to_string(), v.span())),
            other => {
                self.error(
                    v.span(),
                    &join(at, key),
                    format!("expected a string, found {}", other.type_str()),
                );
                None
            }
        }
    }

    fn required_string(
        &mut self,
        t: &Table,
        key: &str,
        at: &str,
        span: &Range<usize>,
    ) -> Option<(String, Range<usize>)> {
        if t.get(key).is_none() {
            self.error(span.clone(), &join(at, key), "missing");
        }
        self.string(t, key, at)
    }

    fn bool(&mut self, t: &Table, key: &str, at: &str) -> Option<bool> {
        let v = t.get(key)?;
        match v.get_ref() {
            DeValue::Boolean(b) => Some(*b),
            other => {
                self.error(
                    v.span(),
                    &join(at, key),
                    format!("expected true or false, found {}", other.type_str()),
                );
                None
            }
        }
    }

    /// An array of strings, each given once.
    fn strings(&mut self, t: &Table, key: &str, at: &str) -> Option<Vec<String>> {
        let v = t.get(key)?;
        let DeValue::Array(a) = v.get_ref() else {
            self.error(
                v.span(),
                &join(at, key),
                format!(
                    "expected an array of strings, found {}",
                    v.get_ref().type_str()
                ),
            );
            return None;
        };
        let mut out: Vec<String> = Vec::new();
        for x in a.iter() {
            match x.get_ref() {
                DeValue::String(s) if out.iter().any(|o| o == s) => {
                    self.error(x.span(), &join(at, key), format!("{s:?} given twice"))
                }
                DeValue::String(s) => out.push(s.to_string()),
                other => self.error(
                    x.span(),
                    &join(at, key),
                    format!("expected a string, found {}", other.type_str()),
                ),
            }
        }
        Some(out)
    }

    /// An array of tables (`[[field]]`).
    fn tables<'t, 'i>(
        &mut self,
        t: &'t Table<'i>,
        key: &str,
    ) -> Vec<(&'t Table<'i>, Range<usize>)> {
        let Some(v) = t.get(key) else { return vec![] };
        let DeValue::Array(a) = v.get_ref() else {
            self.error(
                v.span(),
                key,
                format!(
                    "expected [[{key}]] tables, found {}",
                    v.get_ref().type_str()
                ),
            );
            return vec![];
        };
        a.iter()
            .filter_map(|x| match x.get_ref() {
                DeValue::Table(t) => Some((t, x.span())),
                other => {
                    self.error(
                        x.span(),
                        key,
                        format!("expected a table, found {}", other.type_str()),
                    );
                    None
                }
            })
            .collect()
    }
}

fn join(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_string()
    } else {
        format!("{at}.{key}")
    }
}

fn integer(v: &Val) -> Option<i64> {
    match v.get_ref() {
        DeValue::Integer(n) => i64::from_str_radix(n.as_str(), n.radix()).ok(),
        _ => None,
    }
}

/// Read a spec from its TOML text: the benchmark, or every mistake in it.
pub fn parse(src: &str) -> Result<Declared, Vec<SpecError>> {
    let mut r = Reader {
        src,
        errors: Vec::new(),
    };
    let (doc, syntax) = DeTable::parse_recoverable(src);
    for e in syntax {
        r.error(e.span().unwrap_or(0..0), "", e.message().to_string());
    }
    let top = doc.get_ref();
    let whole = 0..0;
    r.only(
        top,
        &["name", "guidelines", "field", "responses", "question"],
        "",
    );
    let name = r.required_string(top, "name", "", &whole).map(|s| s.0);
    let guidelines = r.string(top, "guidelines", "").map(|s| s.0);

    let mut fields = Vec::new();
    for (n, (t, span)) in r.tables(top, "field").into_iter().enumerate() {
        let at = format!("field[{}]", n + 1);
        r.only(t, &["path", "kind", "label"], &at);
        let path = r.required_string(t, "path", &at, &span);
        let kind = r.required_string(t, "kind", &at, &span).and_then(|(k, s)| {
            let found = FIELD_KINDS.iter().find(|(n, _)| *n == k).map(|(_, f)| *f);
            if found.is_none() {
                r.error(
                    s,
                    &join(&at, "kind"),
                    format!("{k:?} is not one of text, image, number, chat, list"),
                );
            }
            found
        });
        let label = r.string(t, "label", &at).map(|s| s.0);
        if let (Some((path, _)), Some(kind)) = (path, kind) {
            fields.push(Field { path, kind, label });
        }
    }

    let responses = top.get("responses").and_then(|v| match v.get_ref() {
        DeValue::Table(t) => {
            r.only(t, &["path", "model", "text"], "responses");
            let path = r.required_string(t, "path", "responses", &v.span());
            let model = r
                .string(t, "model", "responses")
                .map_or_else(|| "model".into(), |s| s.0);
            let text = r
                .string(t, "text", "responses")
                .map_or_else(|| "text".into(), |s| s.0);
            path.map(|(path, _)| Responses { path, model, text })
        }
        other => {
            r.error(
                v.span(),
                "responses",
                format!("expected a table, found {}", other.type_str()),
            );
            None
        }
    });

    let mut questions: Vec<Question> = Vec::new();
    let tables = r.tables(top, "question");
    if tables.is_empty() && top.get("question").is_none() {
        r.error(
            whole.clone(),
            "question",
            "no [[question]]: a benchmark asks at least one",
        );
    }
    let mut names: Vec<&str> = Vec::new();
    for (n, (t, span)) in tables.into_iter().enumerate() {
        if let Some(v) = t.get("name")
            && let Some(name) = v.get_ref().as_str()
        {
            if names.contains(&name) {
                let at = format!("question[{}] ({name}).name", n + 1);
                r.error(v.span(), &at, format!("a second question named {name:?}"));
            }
            names.push(name);
        }
        questions.extend(question(&mut r, t, span, n, responses.is_some()));
    }

    match name {
        Some(name) if r.errors.is_empty() => Ok(Declared {
            name,
            guidelines,
            fields,
            responses,
            questions,
        }),
        _ => Err(r.errors),
    }
}

/// One `[[question]]` table (the `n`-th, from 0).
fn question(
    r: &mut Reader,
    t: &Table,
    span: Range<usize>,
    n: usize,
    has_responses: bool,
) -> Option<Question> {
    let name = t
        .get("name")
        .and_then(|v| v.get_ref().as_str())
        .unwrap_or("");
    let at = if name.is_empty() {
        format!("question[{}]", n + 1)
    } else {
        format!("question[{}] ({name})", n + 1)
    };
    r.only(
        t,
        &[
            "name",
            "kind",
            "labels",
            "points",
            "points_from",
            "values",
            "per",
            "required",
            "guideline",
        ],
        &at,
    );
    let before = r.errors.len();
    let name = r.required_string(t, "name", &at, &span).map(|s| s.0);
    let kind = r.required_string(t, "kind", &at, &span);
    let kind = match kind.as_ref().map(|(k, s)| (k.as_str(), s.clone())) {
        Some(("label", s)) => match r.strings(t, "labels", &at) {
            Some(l) if !l.is_empty() => Some(Kind::Label(l)),
            _ => {
                let s = t.get("labels").map_or(s, |v| v.span());
                r.error(
                    s,
                    &join(&at, "labels"),
                    "a label question needs `labels`, one or more",
                );
                None
            }
        },
        Some(("multi_label", s)) => {
            let points = r.strings(t, "points", &at);
            let from = r.string(t, "points_from", &at);
            match (points, from) {
                (Some(p), None) if !p.is_empty() => Some(Kind::MultiLabel(Points::Fixed(p))),
                (None, Some((path, _))) => Some(Kind::MultiLabel(Points::From(path))),
                (Some(_), Some(_)) => {
                    r.error(s, &at, "give `points` or `points_from`, not both");
                    None
                }
                _ => {
                    r.error(s, &join(&at, "points"), "a multi_label question needs `points` (one or more) or `points_from` (the item's list)");
                    None
                }
            }
        }
        Some(("rating", s)) => {
            let values = t.get("values");
            match values.map(|v| (v.get_ref(), v.span())) {
                Some((DeValue::Array(a), _)) if a.len() == 2 => {
                    match (integer(&a[0]), integer(&a[1])) {
                        (Some(lo), Some(hi)) if lo < hi => Some(Kind::Rating { lo, hi }),
                        _ => {
                            r.error(
                                values.unwrap().span(),
                                &join(&at, "values"),
                                "expected [lowest, highest], two integers, the lowest first",
                            );
                            None
                        }
                    }
                }
                Some((_, vs)) => {
                    r.error(
                        vs,
                        &join(&at, "values"),
                        "expected [lowest, highest], two integers, the lowest first",
                    );
                    None
                }
                None => {
                    r.error(
                        s,
                        &join(&at, "values"),
                        "a rating question needs `values = [lowest, highest]`",
                    );
                    None
                }
            }
        }
        Some(("text", _)) => Some(Kind::Text),
        Some((other, s)) => {
            r.error(
                s,
                &join(&at, "kind"),
                format!("{other:?} is not one of label, multi_label, rating, text"),
            );
            None
        }
        None => None,
    };
    let per = match r.string(t, "per", &at) {
        None => Per::Item,
        Some((p, _)) if p == "item" => Per::Item,
        Some((p, s)) if p == "response" => {
            if !has_responses {
                r.error(
                    s,
                    &join(&at, "per"),
                    "asked per response, but the spec has no [responses]",
                );
            }
            Per::Response
        }
        Some((p, s)) => {
            r.error(
                s,
                &join(&at, "per"),
                format!("{p:?} is not item or response"),
            );
            Per::Item
        }
    };
    let required = r.bool(t, "required", &at).unwrap_or(false);
    let guideline = r.string(t, "guideline", &at).map(|s| s.0);
    if r.errors.len() > before {
        return None;
    }
    Some(Question {
        name: name?,
        kind: kind?,
        per,
        required,
        guideline,
    })
}
