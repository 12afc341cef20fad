"""lxml, BeautifulSoup (lxml parsers), Pillow, python-docx and python-pptx snippets for the
differential suite: the same code natively and in the guest.

Same format and rules as `cases.py`: each case is the kind of code a model writes in a tool call,
with its own imports, printing deterministic results (no times, addresses, "now", set order of
strings); files go in the case's own current directory. A case may raise on purpose: the runner
records the exception.

Native wheels bundle newer C libraries than the guest's Debian 12 builds (lxml: libxml2 2.13 and
libxslt 1.1.42 against 2.9.14 and 1.1.35; Pillow: libjpeg-turbo 3, libwebp 1.5, FreeType 2.13,
libtiff 4.7 and zlib-ng against libjpeg-turbo 2.1.5, libwebp 1.2.4, FreeType 2.12.1, libtiff
4.5.0 and zlib 1.2.13), so compressed bytes may legitimately differ. Lossless formats therefore
print the decoded pixels (`sha256(im.tobytes())`), never the size of a file that zlib, libtiff
or libwebp compressed (GIF and BMP, which Pillow encodes itself, print their bytes); the cases
whose output depends on a lossy codec or on font rendering are named `pil_jpeg_*`,
`pil_webp_lossy_*` and `pil_text_*`, so that a difference there can be listed with its cause.
The Word and PowerPoint cases print a hash of every part of the saved package (`_PARTS`), so the
XML is compared byte for byte.
"""

from __future__ import annotations

import textwrap

from tests.integration.scientific.cases import Case

CASES: list[Case] = []


def _case(name: str, code: str, tail: str = "") -> None:
    CASES.append(Case(name, textwrap.dedent(code).strip() + "\n" + tail.lstrip("\n")))


# Appended to the Word and PowerPoint cases (which set `path`): each part of the saved package,
# sorted by name, with its size and the sha256 of its bytes (stable natively across runs, hash
# seeds and time zones). Not hashed: docProps/core.xml (creation and modification times: the
# templates' fixed ones unless a case sets them; docx_core_properties prints what it set),
# pictures (Pillow-written PNGs, whose zlib stream differs between zlib-ng natively and zlib in
# the guest: their decoded pixels are hashed) and embedded chart workbooks (XlsxWriter stamps the
# current time into their docProps/core.xml, so their bytes change from run to run, and its
# version differs natively: pptx_chart_bar reads their cells with openpyxl instead).
_PARTS = """
def show_parts(path):
    import hashlib, io, zipfile
    from PIL import Image
    with zipfile.ZipFile(path) as zf:
        for name in sorted(zf.namelist()):
            data = zf.read(name)
            if name == "docProps/core.xml":
                continue
            if "/media/" in name and name.endswith(".png"):
                with Image.open(io.BytesIO(data)) as im:
                    print(name, "pixels", im.size, im.mode, hashlib.sha256(im.tobytes()).hexdigest()[:16])
            elif "/embeddings/" in name:
                print(name, "embedded workbook")
            else:
                print(name, len(data), hashlib.sha256(data).hexdigest()[:16])
show_parts(path)
"""

# --- lxml: parsing and serializing -------------------------------------------------------------

_case(
    "lxml_parse_fromstring_tostring",
    """
from lxml import etree
xml = '<catalog><book id="b1" lang="en"><title>Dune</title><price>9.99</price></book><book id="b2"><title>Emma</title><price>4.50</price></book></catalog>'
root = etree.fromstring(xml)
print(root.tag, len(root), [b.get("id") for b in root], root[0].get("lang"), root[1].get("lang"))
print(etree.tostring(root, pretty_print=True).decode())
print(etree.tostring(root, encoding="unicode")[:60])
print(etree.tostring(root, xml_declaration=True, encoding="UTF-8")[:80])
print(etree.tostring(root[0], encoding="iso-8859-1"))
print(etree.tostring(root, method="text"), etree.tostring(root[1], with_tail=False))
print(etree.tostring(etree.fromstring("<a><b/><c>x</c><d></d></a>"), pretty_print=True, encoding="unicode"), end="")
print(etree.tostring(etree.XML("<a>  <b> x </b>  </a>", etree.XMLParser(remove_blank_text=True))))
""",
)
_case(
    "lxml_parse_file_docinfo_write",
    """
from lxml import etree
with open("inventory.xml", "w", encoding="utf-8") as f:
    f.write('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\\n<!DOCTYPE inventory>\\n<inventory>\\n  <item sku="A1" qty="3">Widget</item>\\n  <item sku="B2" qty="0">Gadget – deluxe</item>\\n</inventory>\\n')
tree = etree.parse("inventory.xml")
info = tree.docinfo
print(info.xml_version, info.encoding, info.standalone, info.root_name, repr(info.doctype), info.URL.endswith("inventory.xml"))
root = tree.getroot()
for item in root.iter("item"):
    print(item.sourceline, item.get("sku"), int(item.get("qty")), item.text)
new = etree.SubElement(root, "item", sku="C3", qty="7")
new.text = "Gizmo"
tree.write("out.xml", pretty_print=True, xml_declaration=True, encoding="utf-8")
with open("out.xml", encoding="utf-8") as f:
    print(f.read())
tree.write("out_c14n.xml", method="c14n")
with open("out_c14n.xml", "rb") as f:
    print(f.read())
""",
)
_case(
    "lxml_etree_find_findall_iter",
    """
from lxml import etree
root = etree.fromstring('''<library>
  <shelf name="fiction">
    <book year="1965" rating="4.5"><title>Dune</title><author>Herbert</author></book>
    <book year="1813" rating="4.1"><title>Pride and Prejudice</title><author>Austen</author></book>
  </shelf>
  <shelf name="science">
    <book year="1988" rating="4.2"><title>A Brief History of Time</title><author>Hawking</author></book>
  </shelf>
</library>''')
print(root.find("shelf").get("name"), root.findtext("shelf/book/title"))
print([b.findtext("title") for b in root.findall(".//book")])
print([s.get("name") for s in root.findall("shelf[@name='science']")])
print([b.get("year") for b in root.iterfind(".//book[author='Austen']")])
print([e.tag for e in root.iter("title", "author")][:4], [e.tag for e in root.iter()][:5])
book = root.find(".//book")
print(sorted(book.attrib.items()), book.keys(), book.items(), dict(book.attrib))
book.set("read", "yes")
del book.attrib["rating"]
print(etree.tostring(book, encoding="unicode", with_tail=False))
print(book.getparent().get("name"), book.getnext().findtext("title"), book.getprevious(), root.index(root[1]))
print(sum(1 for _ in root.iter()), len(root.findall(".//*")), root.find("missing"), root.findtext("missing", default="n/a"))
print([e.tag for e in book.iterancestors()], [e.get("name") for e in root[1].itersiblings(preceding=True)])
print([t.text for t in root.iterdescendants("title")], [c.tag for c in book.iterchildren()], book.sourceline)
print(max(root.iter("book"), key=lambda b: float(b.get("rating", 0))).findtext("title"))
""",
)
_case(
    "lxml_etree_modify_tree",
    """
import copy
from lxml import etree
root = etree.Element("doc", version="2")
for i in range(3):
    sec = etree.SubElement(root, "section", id=f"s{i}")
    sec.text = f"Section {i}"
root.insert(0, etree.Element("title"))
root[0].text = "Report"
root[1].addnext(etree.Element("note"))
root.find("note").tail = "tail text"
root.remove(root.find("section[@id='s2']"))
p = etree.SubElement(root, "p")
p.text = "a "
b = etree.SubElement(p, "b")
b.text = "bold"
b.tail = " and "
i = etree.SubElement(p, "i")
i.text = "italic"
i.tail = " end"
print(etree.tostring(root, encoding="unicode"))
dup = copy.deepcopy(p)
etree.strip_tags(p, "b")
print(etree.tostring(p, encoding="unicode"), etree.tostring(dup, encoding="unicode"))
etree.strip_elements(root, "note", with_tail=False)
root.replace(root[0], etree.Element("heading"))
root.attrib.update({"lang": "en"})
etree.indent(root, space="    ")
print(etree.tostring(root, encoding="unicode"))
print(len(root), [c.tag for c in root], root[-1].xpath("string()"), etree.iselement(root), etree.iselement("x"))
""",
)

# --- lxml: XPath -------------------------------------------------------------------------------

_case(
    "lxml_xpath_functions",
    """
from lxml import etree
root = etree.fromstring('''<orders>
 <order id="1" status="shipped"><item price="10.5" qty="2">pen</item><item price="3" qty="10">clip</item></order>
 <order id="2" status="pending"><item price="99.99" qty="1">lamp</item></order>
 <order id="3" status="shipped"><item price="0.5" qty="100">  paper   clip </item></order>
</orders>''')
exprs = ["count(//order)", "count(//order[@status='shipped'])", "sum(//item/@qty)",
         "sum(//item/@price) div count(//item)", "string(//order[2]/item)",
         "normalize-space(//order[3]/item)", "string-length(//order[1]/item[1])",
         "boolean(//order[@status='cancelled'])", "//item[contains(., 'clip')]/@price",
         "//order[last()]/@id", "//item[position() = 1]/text()", "translate('abc-def', 'abc', 'ABC')",
         "concat(//order[1]/@id, '-', //order[1]/@status)", "round(2.5)", "round(-2.5)", "floor(-1.5)",
         "ceiling(1.2)", "number('x')", "substring-before('2024-05-06', '-')", "substring('12345', 2, 3)",
         "//order[item/@price > 50]/@id", "name(/*)", "1 div 0", "-1 div 0", "10 mod 3", "0.1 + 0.2",
         "string(1 div 3)", "string(100000000000000000000)", "//item[@qty >= 10]/text()",
         "count(//order[1]/following-sibling::order)", "//item[not(@price < 5)]/../@id"]
for expr in exprs:
    r = root.xpath(expr)
    print(expr, "->", type(r).__name__, [str(x) for x in r] if isinstance(r, list) else r)
""",
)
_case(
    "lxml_xpath_namespaces_variables",
    """
from lxml import etree
xml = b'''<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">
<entry><title>One</title><media:thumbnail url="a.png" width="120"/><category term="x"/></entry>
<entry><title>Two</title><media:thumbnail url="b.png" width="240"/><category term="y"/><category term="x"/></entry>
<entry><title>three</title><category term="z"/></entry>
</feed>'''
root = etree.fromstring(xml)
ns = {"a": "http://www.w3.org/2005/Atom", "m": "http://search.yahoo.com/mrss/"}
print(root.xpath("//a:entry/a:title/text()", namespaces=ns))
print(root.xpath("//m:thumbnail[@width > $w]/@url", namespaces=ns, w=150))
find = etree.XPath("//a:entry[a:category/@term = $term]/a:title/text()", namespaces=ns)
print(find(root, term="x"), find(root, term="y"), find(root, term="q"))
ev = etree.XPathEvaluator(root, namespaces=ns)
print(ev("count(//a:category)"), ev("local-name(//m:*)"), ev("namespace-uri(/*)"), ev("count(//a:entry[not(m:thumbnail)])"))
titles = root.xpath("//a:title/text()", namespaces=ns)
print([(str(t), t.is_text, t.is_tail, t.is_attribute, etree.QName(t.getparent()).localname) for t in titles])
attrs = root.xpath("//m:thumbnail/@url", namespaces=ns)
print([(str(a), a.is_attribute, a.attrname) for a in attrs])
regex = etree.XPath(r"//a:title[re:test(., '^t', 'i')]/text()", namespaces={**ns, "re": "http://exslt.org/regular-expressions"})
print(regex(root))
rep = etree.XPath(r"re:replace(string(//a:entry[2]/a:title), 'w', 'g', 'W')", namespaces={**ns, "re": "http://exslt.org/regular-expressions"})
print(rep(root))
print(root.xpath("//*[local-name()='thumbnail']/@url"), root.xpath("string(//a:entry[2]/m:thumbnail/@width)", namespaces=ns))
print(sorted((k or "", v) for k, v in root.nsmap.items()))
print(etree.XPath("count(//a:entry) * $k", namespaces=ns)(root, k=2.5), root.xpath("$s", s="literal"), root.xpath("$b", b=True))
""",
)
_case(
    "lxml_xpath_errors",
    """
from lxml import etree
root = etree.fromstring("<r><a>1</a></r>")
for expr in ["//a[", "foo(//a)", "//x:a", "$undefined", "//a/@", "count()", "1 +"]:
    try:
        print(expr, root.xpath(expr))
    except etree.XPathError as e:
        print(repr(expr), "->", type(e).__name__, "|", e)
try:
    etree.XPath("//a[@b=")
except etree.XPathSyntaxError as e:
    print(type(e).__name__, "|", e)
root.xpath("nosuchfunction()")
""",
)

# --- lxml: XSLT --------------------------------------------------------------------------------

_case(
    "lxml_xslt_params",
    """
from lxml import etree
doc = etree.XML("<people><person age='31'><name>Ann</name></person><person age='17'><name>Bob</name></person><person age='45'><name>Cy</name></person></people>")
xslt = etree.XSLT(etree.XML('''<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="xml" indent="yes"/>
<xsl:param name="min" select="18"/>
<xsl:param name="label" select="'adult'"/>
<xsl:template match="/people">
  <result count="{count(person[@age &gt;= $min])}" label="{$label}">
    <xsl:for-each select="person[@age &gt;= $min]">
      <xsl:element name="{$label}"><xsl:attribute name="age"><xsl:value-of select="@age"/></xsl:attribute><xsl:value-of select="name"/></xsl:element>
    </xsl:for-each>
    <xsl:comment>generated</xsl:comment>
  </result>
</xsl:template>
</xsl:stylesheet>'''))
print(str(xslt(doc)))
res = xslt(doc, min="30", label=etree.XSLT.strparam("grown-up"))
print(str(res))
res = xslt(doc, min="40")
print(res.getroot().get("count"), res.getroot().tag, len(res.getroot()), bytes(res)[:60])
try:
    res.write_output("adults.xml")
    with open("adults.xml", "rb") as f:
        print(f.read())
except LookupError as e:
    print("write_output:", type(e).__name__, "|", e)
res.write("adults_tree.xml")
with open("adults_tree.xml", "rb") as f:
    print(f.read())
print(len(xslt.error_log))
text = etree.XSLT(etree.XML('''<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="text"/>
<xsl:template match="/"><xsl:for-each select="//person"><xsl:value-of select="concat(name, ':', @age, '&#10;')"/></xsl:for-each></xsl:template>
</xsl:stylesheet>'''))
print(str(text(doc)), end="")
""",
)
_case(
    "lxml_xslt_sort_key_grouping",
    """
from lxml import etree
doc = etree.XML('''<sales><sale region="north" rep="Zoe" amount="120"/><sale region="south" rep="al" amount="80"/>
<sale region="north" rep="Bea" amount="40"/><sale region="east" rep="Cal" amount="200"/><sale region="south" rep="Dee" amount="15.5"/>
<sale region="west" rep="eve" amount="9"/></sales>''')
xslt = etree.XSLT(etree.XML('''<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="html" indent="yes"/>
<xsl:key name="by-region" match="sale" use="@region"/>
<xsl:template match="/">
<html><body><table>
<xsl:for-each select="sales/sale[generate-id() = generate-id(key('by-region', @region)[1])]">
  <xsl:sort select="sum(key('by-region', @region)/@amount)" data-type="number" order="descending"/>
  <tr><td><xsl:value-of select="@region"/></td><td><xsl:value-of select="sum(key('by-region', @region)/@amount)"/></td>
  <td><xsl:value-of select="count(key('by-region', @region))"/></td><td><xsl:value-of select="format-number(sum(key('by-region', @region)/@amount), '#,##0.00')"/></td></tr>
</xsl:for-each>
</table>
<ol><xsl:for-each select="sales/sale"><xsl:sort select="@rep" data-type="text" order="ascending"/><li><xsl:value-of select="@rep"/></li></xsl:for-each></ol>
<p><xsl:for-each select="sales/sale"><xsl:sort select="@amount" data-type="number"/><xsl:value-of select="@amount"/><xsl:if test="position() != last()">,</xsl:if></xsl:for-each></p>
<br/></body></html>
</xsl:template>
</xsl:stylesheet>'''))
result = xslt(doc)
print(str(result))
print(result.getroot().tag, [td.text for td in result.getroot().iter("td")][:4])
""",
)
_case(
    "lxml_xslt_exslt_functions",
    """
from lxml import etree
doc = etree.XML("<d><csv>red, green,blue ,  cyan</csv><n k='a'>3</n><n k='b'>17.5</n><n k='a'>-4</n><n k='c'>11</n></d>")
xslt = etree.XSLT(etree.XML('''<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
  xmlns:str="http://exslt.org/strings" xmlns:math="http://exslt.org/math" xmlns:set="http://exslt.org/sets"
  xmlns:exsl="http://exslt.org/common" xmlns:dyn="http://exslt.org/dynamic" xmlns:re="http://exslt.org/regular-expressions"
  extension-element-prefixes="str math set exsl dyn re">
<xsl:output method="text"/>
<xsl:template match="/">
  <xsl:for-each select="str:tokenize(/d/csv, ',')"><xsl:value-of select="concat('[', normalize-space(.), ']')"/></xsl:for-each>
  <xsl:text>&#10;split: </xsl:text><xsl:for-each select="str:split('a--b--c', '--')"><xsl:value-of select="."/>;</xsl:for-each>
  <xsl:text>&#10;max=</xsl:text><xsl:value-of select="math:max(/d/n)"/>
  <xsl:text> min=</xsl:text><xsl:value-of select="math:min(/d/n)"/>
  <xsl:text> abs=</xsl:text><xsl:value-of select="math:abs(-7.5)"/>
  <xsl:text> pow=</xsl:text><xsl:value-of select="math:power(2, 10)"/>
  <xsl:text> sqrt=</xsl:text><xsl:value-of select="math:sqrt(144)"/>
  <xsl:text> highest=</xsl:text><xsl:value-of select="math:highest(/d/n)/@k"/>
  <xsl:text> lowest=</xsl:text><xsl:value-of select="math:lowest(/d/n)/@k"/>
  <xsl:text>&#10;distinct=</xsl:text><xsl:for-each select="set:distinct(/d/n/@k)"><xsl:value-of select="."/></xsl:for-each>
  <xsl:text> has-same-node=</xsl:text><xsl:value-of select="set:has-same-node(/d/n[1], /d/n[@k='a'])"/>
  <xsl:variable name="rtf"><x>1</x><x>2</x><x>3.5</x></xsl:variable>
  <xsl:text>&#10;node-set sum=</xsl:text><xsl:value-of select="sum(exsl:node-set($rtf)/x)"/>
  <xsl:text> type=</xsl:text><xsl:value-of select="exsl:object-type($rtf)"/>,<xsl:value-of select="exsl:object-type(1)"/>
  <xsl:text> dyn=</xsl:text><xsl:value-of select="dyn:evaluate('count(/d/n)')"/>
  <xsl:text>&#10;pad=</xsl:text><xsl:value-of select="str:padding(5, '*-')"/>
  <xsl:text> align=</xsl:text><xsl:value-of select="str:align('ab', '-----', 'right')"/>
  <xsl:text> concat=</xsl:text><xsl:value-of select="str:concat(/d/n)"/>
  <xsl:text> uri=</xsl:text><xsl:value-of select="str:encode-uri('a b&amp;c/é', true())"/>
  <xsl:text> re=</xsl:text><xsl:value-of select="re:replace('2024-05-06', '-', 'g', '/')"/>,<xsl:value-of select="re:test('abc123', '[0-9]+$')"/>,<xsl:for-each select="re:match('key=value', '(\\\\w+)=(\\\\w+)')"><xsl:value-of select="."/>;</xsl:for-each>
  <xsl:text>&#10;</xsl:text>
  <exsl:document href="side.txt" method="text">side output</exsl:document>
</xsl:template>
</xsl:stylesheet>'''))
try:
    print(str(xslt(doc)), end="")
except etree.XSLTApplyError as e:
    print(type(e).__name__, e)
print([(e.level_name, e.message) for e in xslt.error_log])
import os
print(os.path.exists("side.txt"))
""",
)
_case(
    "lxml_xslt_messages_and_errors",
    """
from lxml import etree
doc = etree.XML("<r><v>1</v><v>x</v><v>3</v></r>")
warn = etree.XSLT(etree.XML('''<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:template match="/"><out><xsl:for-each select="r/v">
  <xsl:if test="string(number(.)) = 'NaN'"><xsl:message>bad value: <xsl:value-of select="."/></xsl:message></xsl:if>
  <ok><xsl:value-of select=". * 2"/></ok></xsl:for-each></out></xsl:template>
</xsl:stylesheet>'''))
res = warn(doc)
print(str(res), end="")
print([(e.level_name, e.domain_name, e.message) for e in warn.error_log])
stop = etree.XSLT(etree.XML('''<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:template match="/"><xsl:message terminate="yes">giving up</xsl:message></xsl:template>
</xsl:stylesheet>'''))
try:
    stop(doc)
except etree.XSLTApplyError as e:
    print(type(e).__name__, "|", e, "|", [x.message for x in stop.error_log])
for bad in ['<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template match="/"><xsl:value-of select="(("/></xsl:template></xsl:stylesheet>',
            '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template match="/"><xsl:bogus/></xsl:template></xsl:stylesheet>',
            '<notxslt/>']:
    try:
        etree.XSLT(etree.XML(bad))
        print("parsed")
    except etree.XSLTParseError as e:
        print(type(e).__name__, "|", e)
""",
)
_case(
    "lxml_xslt_python_extensions",
    """
from lxml import etree
def upper(context, value):
    text = value[0].text if isinstance(value, list) else value
    return text.upper()
def total(context, nodes):
    return sum(float(n.get("price")) * int(n.get("qty")) for n in nodes)
ext = {("urn:py", "upper"): upper, ("urn:py", "total"): total}
doc = etree.XML("<cart><item price='2.5' qty='4'>apple</item><item price='10' qty='1'>melon</item></cart>")
xslt = etree.XSLT(etree.XML('''<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:py="urn:py">
<xsl:output method="text"/>
<xsl:template match="/cart"><xsl:for-each select="item"><xsl:value-of select="py:upper(.)"/><xsl:text> </xsl:text></xsl:for-each>= <xsl:value-of select="py:total(item)"/></xsl:template>
</xsl:stylesheet>'''), extensions=ext)
print(str(xslt(doc)))
find = etree.XPath("py:upper(string(//item[2]))", namespaces={"py": "urn:py"}, extensions=ext)
print(find(doc), etree.XPath("py:total(//item)", namespaces={"py": "urn:py"}, extensions=ext)(doc))
def fail(context):
    raise ValueError("boom from python")
try:
    etree.XPath("py:fail()", namespaces={"py": "urn:py"}, extensions={("urn:py", "fail"): fail})(doc)
except ValueError as e:
    print(type(e).__name__, e)
""",
)

# --- lxml: iterparse, large documents ----------------------------------------------------------

_case(
    "lxml_iterparse_events",
    """
import io
from lxml import etree
data = b'<?xml version="1.0"?><log xmlns:x="urn:x"><!-- start --><entry level="info">start</entry><entry level="warn">disk</entry><x:meta k="v"/><entry level="error">fail</entry></log>'
with open("log.xml", "wb") as f:
    f.write(data)
for event, obj in etree.iterparse("log.xml", events=("start", "end", "start-ns", "end-ns", "comment")):
    if event == "start-ns":
        print(event, obj)
    elif event == "end-ns":
        print(event, obj)
    elif event == "comment":
        print(event, repr(obj.text))
    else:
        print(event, obj.tag, obj.get("level"), obj.text if event == "end" else "")
counts = {}
for _, elem in etree.iterparse(io.BytesIO(data), tag="entry"):
    counts[elem.get("level")] = counts.get(elem.get("level"), 0) + 1
    elem.clear()
print(sorted(counts.items()))
print([e.tag for _, e in etree.iterparse(io.BytesIO(data), tag="{urn:x}*")])
seen = []
try:
    for event, elem in etree.iterparse(io.BytesIO(b"<a><b>1</b><b>2</b><c></a>")):
        seen.append(elem.tag)
except etree.XMLSyntaxError as e:
    print(seen, type(e).__name__, "|", e)
parser = etree.XMLPullParser(events=("end",), tag="b")
for chunk in [b"<a><b>1", b"</b><b>2</b>", b"<b>3</b></a>"]:
    parser.feed(chunk)
    print([el.text for _, el in parser.read_events()])
print(parser.close().tag)
""",
)
_case(
    "lxml_large_document_10k",
    """
import hashlib
from lxml import etree
root = etree.Element("rows")
for i in range(10000):
    row = etree.SubElement(root, "row", id=str(i), group=str(i % 7))
    row.text = f"value {i * 3}"
data = etree.tostring(root)
print(len(data), hashlib.sha256(data).hexdigest()[:16])
tree = etree.fromstring(data)
print(len(tree), tree.xpath("count(//row[@group='3'])"), tree.xpath("sum(//row/@id)"), tree[-1].text)
print([len(tree.findall(f"row[@group='{g}']")) for g in range(7)])
with open("big.xml", "wb") as f:
    f.write(etree.tostring(tree, pretty_print=True, xml_declaration=True, encoding="UTF-8"))
n = total = 0
for _, el in etree.iterparse("big.xml", tag="row"):
    n += 1
    total += int(el.get("id"))
    el.clear()
    while el.getprevious() is not None:
        del el.getparent()[0]
print(n, total)
big = etree.parse("big.xml")
print(big.getroot()[5000].sourceline, len(big.xpath("//row[contains(., '99')]")), big.xpath("string(//row[@id='9999'])"))
wide = etree.fromstring("<w " + " ".join(f'a{i}="{i}"' for i in range(2000)) + "/>")
print(len(wide.attrib), wide.get("a1999"))
""",
)
_case(
    "lxml_deep_nesting_limit",
    """
from lxml import etree
def nested(depth):
    return "<n>" * depth + "x" + "</n>" * depth
print(len(etree.fromstring(nested(200)).xpath("//n")))
try:
    root = etree.fromstring(nested(3000))
    print("parsed", len(root.xpath("//n")))
except etree.XMLSyntaxError as e:
    print(type(e).__name__, "|", e)
root = etree.fromstring(nested(1500), etree.XMLParser(huge_tree=True))
print("huge_tree", len(root.xpath("//n")), root.xpath("string()"))
""",
)

# --- lxml.html ---------------------------------------------------------------------------------

_case(
    "lxml_html_broken_markup",
    """
from lxml import html
broken = "<html><body><div class=main><p>First <b>bold <i>both</b> italic?</i><p>Second<ul><li>one<li>two</ul><table><tr><td>c1<td>c2</table><img src=x.png alt='pic'><br>tail &amp; &copy; &nbsp;x</div></body>"
doc = html.fromstring(broken)
print(doc.tag)
print(html.tostring(doc, pretty_print=True).decode())
print(repr(doc.text_content()))
print([p.text_content() for p in doc.xpath("//p")], [li.text for li in doc.xpath("//li")], doc.xpath("count(//td)"))
print(doc.xpath("//div[@class='main']/img/@alt"), doc.find_class("main")[0].tag, doc.body.tag)
unclosed = html.fromstring("<div><span>a<span>b</div><p>after")
print(html.tostring(unclosed))
print(html.tostring(html.fromstring("<p>x</p><p>y</p>")))
""",
)
_case(
    "lxml_html_document_links_forms",
    """
from lxml import html
page = '''<html><head><link rel="stylesheet" href="style.css"><title>Links</title></head><body>
<a href="intro.html">Intro</a> <a href="/abs/page?x=1&amp;y=2#frag">Abs</a> <a href="https://other.org/">Ext</a>
<img src="img/logo.png"><p style="background: url('bg.png')">styled</p>
<form action="submit" method="post"><input name="q" value="lxml"><select name="lang"><option value="py" selected>Python</option><option value="c">C</option></select>
<input type="checkbox" name="ok" checked><textarea name="msg">hi there</textarea><input type="submit" name="go" value="Go"></form></body></html>'''
doc = html.document_fromstring(page)
print(doc.findtext(".//title"), doc.head.tag, doc.body.tag)
for el, attr, link, pos in doc.iterlinks():
    print(el.tag, attr, link, pos)
doc.make_links_absolute("https://example.com/docs/")
print([a.get("href") for a in doc.xpath("//a")], doc.xpath("//link/@href"))
doc.rewrite_links(lambda link: link.replace("https://", "secure://"))
print(doc.xpath("//img/@src"), doc.xpath("//form/@action"))
form = doc.forms[0]
print(form.action, form.method, list(form.fields.keys()), form.fields["q"], form.fields["lang"])
form.fields["q"] = "changed"
print(form.form_values(), form.inputs["ok"].checked, form.inputs["lang"].value_options)
""",
)
_case(
    "lxml_html_fragments_text",
    """
from lxml import etree, html
frag = html.fragment_fromstring("<p>Hello <b>world</b></p>")
print(frag.tag, html.tostring(frag))
wrap = html.fragment_fromstring("text <em>mixed</em> tail", create_parent="div")
print(html.tostring(wrap, encoding="unicode"))
parts = html.fragments_fromstring("lead <span>a</span><span>b</span> end")
print([p if isinstance(p, str) else (p.tag, p.text, p.tail) for p in parts])
doc = html.fromstring("<div><script>var x = 1;</script><style>p{}</style><!-- c --><p>Visible &amp; text&nbsp;here</p></div>")
print(repr(doc.text_content()), repr(html.tostring(doc, method="text", encoding="unicode")))
parser = etree.HTMLParser(remove_comments=True, remove_blank_text=True)
tree = etree.fromstring("<html><body> <p>a</p> <!-- gone --> <p>b</p></body></html>", parser)
print(etree.tostring(tree, encoding="unicode"), etree.tostring(tree, method="html", encoding="unicode"))
print(html.tostring(html.fromstring("<p>a<br>b<input disabled></p>"), method="xml"))
print(html.tostring(html.document_fromstring("<p>x"), doctype="<!DOCTYPE html>"))
try:
    html.fragment_fromstring("<p>a</p><p>b</p>")
except etree.ParserError as e:
    print(type(e).__name__, "|", e)
""",
)
_case(
    "lxml_html_cssselect_and_clean_missing",
    """
from lxml import html
doc = html.fromstring("<div><p class='x'>a</p><p>b</p></div>")
print(doc.xpath("//p[contains(concat(' ', normalize-space(@class), ' '), ' x ')]/text()"))
try:
    print([p.text for p in doc.cssselect("p.x")])
except ImportError as e:
    print("cssselect:", type(e).__name__, "|", e)
try:
    from lxml.html.clean import Cleaner
    print(Cleaner)
except ImportError as e:
    print("clean:", type(e).__name__, "|", e)
""",
)

# --- lxml: objectify, builder ------------------------------------------------------------------

_case(
    "lxml_objectify",
    """
from lxml import etree, objectify
root = objectify.fromstring("<order><id>42</id><total>19.95</total><paid>true</paid><note>none</note><item sku='a'>pen</item><item sku='b'>ink</item><empty/><neg>-7</neg></order>")
print(root.id + 1, root.total * 2, bool(root.paid), root.neg * 2)
print([type(x).__name__ for x in (root.id, root.total, root.paid, root.note, root.item, root.empty)])
print(root.id.pyval, root.total.pyval, [i.text for i in root.item], root.item[1].get("sku"), len(root.item), root.countchildren())
root.extra = 3.5
root.flag = False
root.name = "Ann"
print(objectify.dump(root))
objectify.deannotate(root, cleanup_namespaces=True)
print(etree.tostring(root, encoding="unicode"))
E = objectify.E
doc = E.root(E.a(1), E.b("x"), E.c(2.5), E.d(True), E.e(None))
print(objectify.dump(doc))
print(root.find("item").text, getattr(root, "missing", "n/a"))
try:
    root.missing
except AttributeError as e:
    print(type(e).__name__, "|", e)
""",
)
_case(
    "lxml_builder_e_factory",
    """
from lxml import etree
from lxml.builder import E, ElementMaker
page = E.html(
    E.head(E.title("Report")),
    E.body(E.h1("Q1", {"class": "title"}), E.p("Total: ", E.b("42"), " units"), E.ul(*[E.li(x, id=f"i{n}") for n, x in enumerate("abc")])),
)
print(etree.tostring(page, pretty_print=True, encoding="unicode"))
SVG = ElementMaker(namespace="http://www.w3.org/2000/svg", nsmap={None: "http://www.w3.org/2000/svg", "xlink": "http://www.w3.org/1999/xlink"})
svg = SVG.svg(SVG.rect(x="0", y="0", width="10", height="5"), SVG.circle(cx="5", cy="5", r="2"), width="100")
svg.append(SVG.use({"{http://www.w3.org/1999/xlink}href": "#c"}))
print(etree.tostring(svg, encoding="unicode"))
P = ElementMaker(namespace="urn:p", nsmap={"p": "urn:p"})
print(etree.tostring(P.doc(P.item("1"), E.plain("x")), encoding="unicode"))
""",
)

# --- lxml: validation --------------------------------------------------------------------------

_case(
    "lxml_validate_xmlschema",
    """
from lxml import etree
xsd = etree.XMLSchema(etree.XML(b'''<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="person">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="name" type="xs:string"/>
        <xs:element name="age" type="xs:positiveInteger"/>
        <xs:element name="email" type="xs:string" minOccurs="0" maxOccurs="unbounded"/>
      </xs:sequence>
      <xs:attribute name="id" type="xs:ID" use="required"/>
      <xs:attribute name="kind" type="xs:string" default="human"/>
    </xs:complexType>
  </xs:element>
</xs:schema>'''))
good = etree.XML(b'<person id="p1"><name>Ann</name><age>30</age><email>a@x</email></person>')
bad = etree.XML(b'<person>\\n<name>Bob</name>\\n<age>-3</age>\\n<phone/>\\n</person>')
print(xsd.validate(good), xsd.validate(bad))
for e in xsd.error_log:
    print(e.line, e.level_name, e.domain_name, e.type_name, "|", e.message)
try:
    xsd.assertValid(bad)
except etree.DocumentInvalid as e:
    print(type(e).__name__, "|", e)
parser = etree.XMLParser(schema=xsd, attribute_defaults=True)
print(etree.tostring(etree.fromstring(b'<person id="p2"><name>C</name><age>1</age></person>', parser)))
try:
    etree.fromstring(b"<person><age>x</age></person>", parser)
except etree.XMLSyntaxError as e:
    print(type(e).__name__, "|", e)
try:
    etree.XMLSchema(etree.XML('<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="x" type="xs:nope"/></xs:schema>'))
except etree.XMLSchemaParseError as e:
    print(type(e).__name__, "|", e)
""",
)
_case(
    "lxml_validate_relaxng",
    """
from lxml import etree
rng = etree.RelaxNG(etree.XML('''<element name="config" xmlns="http://relaxng.org/ns/structure/1.0" datatypeLibrary="http://www.w3.org/2001/XMLSchema-datatypes">
  <attribute name="version"><data type="integer"/></attribute>
  <oneOrMore><element name="server"><attribute name="host"><text/></attribute><optional><element name="port"><data type="int"/></element></optional></element></oneOrMore>
  <optional><element name="mode"><choice><value>dev</value><value>prod</value></choice></element></optional>
</element>'''))
good = etree.XML('<config version="2"><server host="a"><port>80</port></server><server host="b"/><mode>prod</mode></config>')
bad = etree.XML('<config version="two">\\n<server><port>http</port></server>\\n<mode>test</mode>\\n</config>')
empty = etree.XML('<config version="1"/>')
print(rng.validate(good), rng.validate(bad), rng.validate(empty))
print([(e.line, e.type_name, e.message) for e in rng.error_log])
rng.validate(bad)
for e in rng.error_log:
    print(e.line, e.level_name, e.type_name, "|", e.message)
try:
    rng.assertValid(bad)
except etree.DocumentInvalid as e:
    print(type(e).__name__, "|", e)
try:
    etree.RelaxNG(etree.XML('<element xmlns="http://relaxng.org/ns/structure/1.0"><empty/></element>'))
except etree.RelaxNGParseError as e:
    print(type(e).__name__, "|", e)
""",
)
_case(
    "lxml_validate_dtd",
    """
import io
from lxml import etree
dtd_text = '<!ELEMENT note (to, from, body?)><!ELEMENT to (#PCDATA)><!ELEMENT from (#PCDATA)><!ELEMENT body (#PCDATA)><!ATTLIST note priority (low|high) "low" id ID #IMPLIED>'
dtd = etree.DTD(io.StringIO(dtd_text))
good = etree.XML("<note><to>A</to><from>B</from><body>Hi</body></note>")
bad = etree.XML("<note priority='urgent'>\\n<from>B</from><to>A</to><extra/></note>")
print(dtd.validate(good), dtd.validate(bad))
for e in dtd.error_log:
    print(e.line, e.type_name, "|", e.message)
print([(el.name, el.type, el.content.type if el.content is not None else None) for el in dtd.iterelements()])
print([(a.elemname, a.name, a.type, a.default, a.default_value, a.values()) for a in dtd.elements()[0].attributes()])
with open("note.dtd", "w") as f:
    f.write(dtd_text)
with open("note.xml", "w") as f:
    f.write('<?xml version="1.0"?>\\n<!DOCTYPE note SYSTEM "note.dtd">\\n<note><to>A</to><from>B</from></note>')
with open("bad_note.xml", "w") as f:
    f.write('<?xml version="1.0"?>\\n<!DOCTYPE note SYSTEM "note.dtd">\\n<note>\\n<from>B</from>\\n</note>')
tree = etree.parse("note.xml", etree.XMLParser(dtd_validation=True))
print(etree.tostring(tree.getroot()), tree.docinfo.system_url, tree.docinfo.internalDTD is None, tree.docinfo.externalDTD is not None)
tree = etree.parse("note.xml", etree.XMLParser(load_dtd=True, attribute_defaults=True))
print(etree.tostring(tree.getroot()))
try:
    etree.parse("bad_note.xml", etree.XMLParser(dtd_validation=True))
except etree.XMLSyntaxError as e:
    print(type(e).__name__, "|", e)
internal = etree.fromstring('<!DOCTYPE r [<!ELEMENT r (a*)><!ELEMENT a EMPTY>]><r><a/><a/></r>', etree.XMLParser(dtd_validation=True))
print(len(internal), internal.getroottree().docinfo.internalDTD.name)
""",
)
_case(
    "lxml_isoschematron",
    """
from lxml import etree, isoschematron
schema = isoschematron.Schematron(etree.XML('''<schema xmlns="http://purl.oclc.org/dsdl/schematron">
  <pattern id="totals">
    <rule context="invoice">
      <assert test="total = sum(line/@amount)">total must equal the sum of the lines</assert>
      <report test="count(line) &gt; 2">more than two lines</report>
    </rule>
    <rule context="line"><assert test="@amount &gt; 0">amounts are positive</assert></rule>
  </pattern>
</schema>'''), store_report=True)
good = etree.XML('<invoice><line amount="5"/><line amount="7"/><total>12</total></invoice>')
bad = etree.XML('<invoice><line amount="5"/><line amount="-1"/><line amount="3"/><total>10</total></invoice>')
print(schema.validate(good), schema.validate(bad))
report = schema.validation_report
ns = {"svrl": "http://purl.oclc.org/dsdl/svrl"}
print([t.strip() for t in report.xpath("//svrl:failed-assert/svrl:text/text()", namespaces=ns)])
print([t.strip() for t in report.xpath("//svrl:successful-report/svrl:text/text()", namespaces=ns)])
print(report.xpath("//svrl:failed-assert/@location", namespaces=ns))
print([e.message.strip()[:80] for e in schema.error_log])
""",
)

# --- lxml: namespaces, C14N, entities, comments ------------------------------------------------

_case(
    "lxml_c14n",
    """
from lxml import etree
xml = '<?xml version="1.0"?>\\n<!-- top --><root xmlns:b="urn:b" xmlns:a="urn:a" z="1" a:y="2" b="3"><a:child   x="&amp;&lt;" ><![CDATA[<cdata> & more]]></a:child><empty/><!-- inner --><t>  spaced\\ttext </t></root>'
tree = etree.fromstring(xml).getroottree()
print(etree.tostring(tree, method="c14n"))
print(etree.tostring(tree, method="c14n", with_comments=False))
print(etree.tostring(tree.getroot()[0], method="c14n", exclusive=True))
print(etree.tostring(tree.getroot()[0], method="c14n", exclusive=True, inclusive_ns_prefixes=["b"]))
print(etree.tostring(tree, method="c14n2"))
print(etree.tostring(tree, method="c14n2", strip_text=True, with_comments=False))
print(etree.canonicalize(xml.split("\\n", 1)[1], strip_text=True))
print(etree.canonicalize("<a xmlns:u='urn:u' xmlns='urn:d'><u:b/></a>", rewrite_prefixes=True))
tree.write_c14n("c14n.xml")
with open("c14n.xml", "rb") as f:
    print(f.read()[:60])
""",
)
_case(
    "lxml_namespaces_nsmap_qname",
    """
from lxml import etree
root = etree.fromstring('<r xmlns="urn:default" xmlns:x="urn:x" xmlns:unused="urn:unused"><a x:attr="1"><x:b/><c xmlns="urn:other"/></a></r>')
print(root.tag, root.prefix, sorted((k or "", v) for k, v in root.nsmap.items()))
q = etree.QName(root[0][0])
print(q.namespace, q.localname, q.text, etree.QName("urn:z", "tag").text)
print([el.tag for el in root.iter()], [el.prefix for el in root.iter()])
print(root.find("{urn:default}a").get("{urn:x}attr"), [e.tag for e in root.findall("{*}a/{*}*")], [e.tag for e in root.findall(".//{*}c")])
print(root.xpath("//d:a/x:b", namespaces={"d": "urn:default", "x": "urn:x"})[0].prefix, root.find("a", namespaces={"": "urn:default"}).tag)
print(sorted((k or "", v) for k, v in root[0][1].nsmap.items()))
etree.cleanup_namespaces(root)
print(etree.tostring(root, encoding="unicode"))
el = etree.Element("{urn:new}top", nsmap={None: "urn:new", "p": "urn:p"})
etree.SubElement(el, "{urn:p}x").set("{urn:p}k", "v")
etree.SubElement(el, "{urn:q}y")
etree.SubElement(el, "{urn:q}z")
etree.SubElement(el, "plain")
print(etree.tostring(el, encoding="unicode"))
etree.cleanup_namespaces(el, top_nsmap={"q": "urn:q"})
print(etree.tostring(el, encoding="unicode"))
""",
)
_case(
    "lxml_entities_cdata_comments_pi",
    """
from lxml import etree
xml = '''<!DOCTYPE doc [<!ENTITY company "Acme &amp; Co"><!ENTITY year "2024">]>
<doc><?render mode="fast"?><!-- a comment --><name>&company;</name><y>&year;</y><code><![CDATA[if (a < b && c) {}]]></code>&#169;&#x263A;</doc>'''
root = etree.fromstring(xml)
for node in root:
    if isinstance(node, etree._Comment):
        print("comment", repr(node.text))
    elif isinstance(node, etree._ProcessingInstruction):
        print("pi", node.target, repr(node.text), node.get("mode"))
    else:
        print("element", node.tag, repr(node.text), repr(node.tail))
print(etree.tostring(root, encoding="unicode"))
root2 = etree.fromstring(xml, etree.XMLParser(resolve_entities=False))
print(etree.tostring(root2, encoding="unicode"))
print([(e.name, e.text) for e in root2.iter(etree.Entity)])
print(etree.tostring(etree.fromstring(xml, etree.XMLParser(strip_cdata=False)).find("code")))
print(etree.tostring(etree.fromstring(xml, etree.XMLParser(remove_comments=True, remove_pis=True)), encoding="unicode"))
el = etree.Element("script")
el.text = etree.CDATA("x < y && y > z")
print(etree.tostring(el), el.text)
c = etree.Comment(" generated ")
pi = etree.ProcessingInstruction("xml-stylesheet", 'type="text/css" href="s.css"')
r3 = etree.Element("r")
r3.append(etree.Entity("nbsp"))
r3.append(c)
print(etree.tostring(c), etree.tostring(pi), etree.tostring(r3), pi.get("href"))
tree = root.getroottree()
print(tree.docinfo.internalDTD is not None, etree.tostring(tree, encoding="unicode").splitlines()[0])
print([(e.name, e.content) for e in tree.docinfo.internalDTD.iterentities()])
""",
)
_case(
    "lxml_external_entity_policy",
    """
from lxml import etree
with open("secret.txt", "w") as f:
    f.write("top secret")
with open("doc.xml", "w") as f:
    f.write('<?xml version="1.0"?>\\n<!DOCTYPE d [<!ENTITY ext SYSTEM "secret.txt"><!ENTITY int "inside">]>\\n<d><a>&int;</a><b>&ext;</b></d>')
for label, parser in [("default", etree.XMLParser()), ("resolve_entities=True", etree.XMLParser(resolve_entities=True)),
                      ("resolve_entities=False", etree.XMLParser(resolve_entities=False)),
                      ("load_dtd+no_network", etree.XMLParser(load_dtd=True, no_network=True, resolve_entities=True))]:
    try:
        root = etree.parse("doc.xml", parser).getroot()
        print(label, "|", etree.tostring(root, encoding="unicode"), "|", repr(root.findtext("b")))
    except etree.XMLSyntaxError as e:
        print(label, type(e).__name__, "|", e)
""",
)

# --- lxml: errors, encodings, XInclude, parser targets ------------------------------------------

_case(
    "lxml_syntax_error_raised",
    """
from lxml import etree
root = etree.fromstring("<root><item>1</item><item>2</root>")
print(root.tag)
""",
)
_case(
    "lxml_syntax_errors_caught",
    """
from lxml import etree
samples = ["", "<a>", "<a></b>", "<a b='1' b='2'/>", "<a>&undefined;</a>", "text only", "<a><b></a>",
           "<a x=1/>", "<1a/>", "<a/><b/>", "<a>\\x01</a>", "<?xml version='1.0' encoding='UTF-8'?><a/>",
           b"<a>\\xff\\xfe</a>", "<a>]]></a>", "<!DOCTYPE a [<!ELEMENT a (b)>]><a><c/></a>"]
for s in samples:
    try:
        root = etree.fromstring(s)
        print(repr(s), "ok", root.tag)
    except etree.XMLSyntaxError as e:
        print(repr(s), type(e).__name__, e.lineno, e.position, "|", e)
    except ValueError as e:
        print(repr(s), type(e).__name__, "|", e)
recover = etree.XMLParser(recover=True)
for s in ["<a><b>text</a><c>", "<r><x>1</x><y>2</r>", "<a>&bad; & ok</a>"]:
    root = etree.fromstring(s, recover)
    print(repr(s), "->", etree.tostring(root), len(recover.error_log))
""",
)
_case(
    "lxml_encodings",
    """
from lxml import etree
latin = '<?xml version="1.0" encoding="ISO-8859-1"?>\\n<t a="é">café naïve ½</t>'.encode("latin-1")
root = etree.fromstring(latin)
print(root.text, root.get("a"), root.getroottree().docinfo.encoding)
u16 = '<?xml version="1.0" encoding="UTF-16"?>\\n<t>Grüße 日本 ☃</t>'.encode("utf-16")
root = etree.fromstring(u16)
print(root.text, root.getroottree().docinfo.encoding, u16[:4])
u16be = '<?xml version="1.0" encoding="UTF-16BE"?><t>big endian</t>'.encode("utf-16-be")
print(etree.fromstring(u16be).text)
cp = '<?xml version="1.0" encoding="windows-1252"?><t>“quotes” €5 – dash</t>'.encode("cp1252")
print(etree.fromstring(cp).text)
print(etree.tostring(etree.fromstring(latin), encoding="utf-8"))
el = etree.Element("t", note="ü")
el.text = "snow ☃ café"
for enc in [None, "ascii", "iso-8859-1", "utf-8", "unicode"]:
    print(enc, etree.tostring(el, encoding=enc))
print(etree.tostring(el, encoding="utf-16")[:24])
try:
    etree.fromstring('<?xml version="1.0" encoding="UTF-8"?><a/>')
except ValueError as e:
    print(type(e).__name__, "|", e)
for name in ["iso-8859-1", "latin1", "latin-1"]:
    try:
        print(name, etree.fromstring("<t>é</t>".encode("latin-1"), etree.XMLParser(encoding=name)).text)
    except LookupError as e:
        print(name, type(e).__name__, "|", e)
with open("latin.xml", "wb") as f:
    f.write(latin)
tree = etree.parse("latin.xml")
tree.write("utf8.xml", encoding="utf-8", xml_declaration=True)
with open("utf8.xml", "rb") as f:
    print(f.read())
try:
    etree.fromstring(b'<?xml version="1.0" encoding="no-such-enc"?><a/>')
except (etree.XMLSyntaxError, LookupError) as e:
    print(type(e).__name__, "|", e)
""",
)
_case(
    "lxml_xinclude",
    """
from lxml import etree
with open("chapter1.xml", "w") as f:
    f.write("<chapter><title>One</title><para>Text</para></chapter>")
with open("notes.txt", "w") as f:
    f.write("plain text note & more")
with open("book.xml", "w") as f:
    f.write('<book xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="chapter1.xml"/><xi:include href="chapter1.xml" xpointer="xpointer(/chapter/title)"/><xi:include href="notes.txt" parse="text"/><xi:include href="missing.xml"><xi:fallback><missing/></xi:fallback></xi:include></book>')
tree = etree.parse("book.xml")
tree.xinclude()
print(etree.tostring(tree, encoding="unicode"))
print([el.tag for el in tree.getroot()], tree.getroot().xpath("string(chapter/title)"))
with open("broken.xml", "w") as f:
    f.write('<book xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="nope.xml"/></book>')
try:
    etree.parse("broken.xml").xinclude()
except etree.XIncludeError as e:
    print(type(e).__name__, "|", str(e).replace("file:", "")[:200].split("/")[-1])
""",
)
_case(
    "lxml_parser_target_and_sax",
    """
from xml.sax.handler import ContentHandler
import lxml.sax
from lxml import etree
class Collector:
    def __init__(self):
        self.events = []
    def start(self, tag, attrib):
        self.events.append(("start", tag, sorted(attrib.items())))
    def end(self, tag):
        self.events.append(("end", tag))
    def data(self, data):
        self.events.append(("data", data))
    def comment(self, text):
        self.events.append(("comment", text))
    def pi(self, target, data):
        self.events.append(("pi", target, data))
    def close(self):
        return self.events
parser = etree.XMLParser(target=Collector())
for ev in etree.fromstring("<a x='1' y='2'><b>t</b><!--c--><?p d?><b/></a>", parser):
    print(ev)
class Handler(ContentHandler):
    def __init__(self):
        super().__init__()
        self.out = []
    def startElementNS(self, name, qname, attrs):
        self.out.append(("start", name, sorted((k, v) for k, v in attrs.items())))
    def endElementNS(self, name, qname):
        self.out.append(("end", name))
    def characters(self, content):
        self.out.append(("chars", content))
h = Handler()
lxml.sax.saxify(etree.fromstring("<r xmlns='urn:r'><i n='1'>x</i></r>"), h)
print(h.out)
builder = lxml.sax.ElementTreeContentHandler()
builder.startDocument()
builder.startElementNS((None, "root"), "root", {})
builder.characters("hello")
builder.endElementNS((None, "root"), "root")
builder.endDocument()
print(etree.tostring(builder.etree))
tb = etree.TreeBuilder()
tb.start("x", {"k": "v"})
tb.data("data")
tb.end("x")
print(etree.tostring(tb.close()))
""",
)
_case(
    "lxml_pandas_read_html",
    """
from io import StringIO
import pandas as pd
page = '''<html><body>
<table id="t1"><thead><tr><th>city</th><th>pop</th><th>area</th></tr></thead>
<tbody><tr><td>Oslo</td><td>709,037</td><td>454.0</td></tr><tr><td>Bergen</td><td>289,330</td><td>445.0</td></tr><tr><td>Tromsø</td><td>78,745</td><td>2,521</td></tr></tbody></table>
<table><tr><th>k</th><th colspan="2">v</th></tr><tr><td>a</td><td>1</td><td>2</td></tr><tr><td rowspan="2">b</td><td>3</td><td>4</td></tr><tr><td>5</td><td>6</td></tr></table>
</body></html>'''
tables = pd.read_html(StringIO(page))
print(len(tables))
print(tables[0], tables[0].dtypes, sep="\\n")
print(tables[1])
print(pd.read_html(StringIO(page), attrs={"id": "t1"}, thousands=",")[0]["pop"].sum())
print(pd.read_html(StringIO(page), match="Bergen", flavor="lxml")[0].shape)
""",
)
_case(
    "lxml_pandas_read_xml_to_xml",
    """
from io import StringIO
import pandas as pd
xml = '''<?xml version="1.0"?>
<data xmlns:m="urn:m">
  <row id="1"><shape>square</shape><sides>4</sides><m:deg>360</m:deg></row>
  <row id="2"><shape>circle</shape><sides/><m:deg>360</m:deg></row>
  <row id="3"><shape>triangle</shape><sides>3</sides><m:deg>180</m:deg></row>
</data>'''
df = pd.read_xml(StringIO(xml))
print(df, df.dtypes, sep="\\n")
print(pd.read_xml(StringIO(xml), xpath="//row[m:deg > 200]", namespaces={"m": "urn:m"}))
xsl = '''<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:m="urn:m">
<xsl:output method="xml" indent="yes"/>
<xsl:template match="/data"><items><xsl:for-each select="row"><item><name><xsl:value-of select="shape"/></name><half><xsl:value-of select="m:deg div 2"/></half></item></xsl:for-each></items></xsl:template>
</xsl:stylesheet>'''
print(pd.read_xml(StringIO(xml), stylesheet=StringIO(xsl)))
out = df.to_xml(index=False, root_name="shapes", row_name="shape", attr_cols=["id"], elem_cols=["shape", "sides"])
print(out)
print(df.to_xml(parser="lxml", pretty_print=False, namespaces={"": "urn:x"}))
df.to_xml("shapes.xml", index=False)
print(pd.read_xml("shapes.xml").equals(df.drop(columns=[])))
""",
)

# --- BeautifulSoup with lxml's parsers ---------------------------------------------------------

_case(
    "bs4_lxml_tree_navigation",
    """
import re
from bs4 import BeautifulSoup
html = '''<html><head><title>Shop</title></head><body>
<div id="products">
  <div class="product featured" data-id="1"><h2>Lamp</h2><span class="price">$19.99</span><a href="/p/1">more</a></div>
  <div class="product" data-id="2"><h2>Chair</h2><span class="price">$49.00</span><a href="/p/2">more</a></div>
  <div class="product" data-id="3"><h2>Desk</h2><span class="price sale">$120.50</span></div>
</div></body></html>'''
soup = BeautifulSoup(html, "lxml")
print(soup.title.string, soup.title.parent.name, type(soup.title.string).__name__, soup.html.name)
for p in soup.find_all("div", class_="product"):
    print(p["data-id"], p.h2.get_text(), p.find("span", class_="price").text, p["class"], p.a["href"] if p.a else None)
print(len(soup.find_all(True)), [t.name for t in soup.body.find_all(recursive=False)], soup.find(id="products").name)
print(soup.find("span", string="$49.00").find_parent("div")["data-id"], soup.find(attrs={"data-id": "3"}).h2.string)
print([s.name for s in soup.find("h2").next_siblings], [a["href"] for a in soup.find_all("a", href=re.compile(r"/p/\\d"))])
print(soup.find("div", class_="featured").find_next_sibling("div")["data-id"], [t.name for t in soup.find("h2").parents])
print(sum(float(s.text.strip("$")) for s in soup.find_all("span", class_="price")), soup.find_all("span", class_="sale")[0]["class"])
print(soup.find("h2").find_next("span").text, soup.find_all(["h2", "a"], limit=3), soup.find("nothing"))
""",
)
_case(
    "bs4_lxml_select_css",
    """
from bs4 import BeautifulSoup
soup = BeautifulSoup('''<ul id="menu"><li class="item active"><a href="/a" data-x="1">A</a></li><li class="item"><a href="/b">B</a></li>
<li class="item disabled"><a href="https://ext.org/c">C</a></li><li><span>no class</span></li></ul>
<table><tr><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></table><p lang="en-GB">Hi</p><input type="text" disabled><input type="text">''', "lxml")
for sel in ["li.item > a", "li.item:not(.disabled) a", "a[href^='https']", "a[data-x]", "#menu li:nth-of-type(2) a",
            "li:has(span)", "tr:nth-child(2) td:last-child", "td:nth-child(odd)", "p:lang(en)", "input:disabled",
            "a:-soup-contains('B')", "ul > li:first-child a, table td:empty", "li ~ li", "li + li > a"]:
    print(sel, "->", [el.get_text() or el.name for el in soup.select(sel)])
print(soup.select_one("li.active a")["href"], soup.select_one(".nope"), len(soup.select("li", limit=2)))
print(soup.li.css.match("li.item"), soup.find_all("li")[3].css.match("li.item"), [a["href"] for a in soup.css.select("a")], soup.css.select_one("td").text)
print([li.get_text() for li in soup.css.filter("li.item")] if False else [li.get_text() for li in soup.ul.css.filter(".item")])
""",
)
_case(
    "bs4_lxml_get_text_prettify",
    """
from bs4 import BeautifulSoup
soup = BeautifulSoup('''<html><body><h1>  Title\\n</h1><p>First <b>bold</b> and <i>italic</i>.</p>
<p>Second&nbsp;line<br>after break &amp; entities &lt;tag&gt; &copy;</p><script>var x = "<p>not</p>";</script><!-- hidden --></body></html>''', "lxml")
print(repr(soup.get_text()))
print(repr(soup.get_text(" ", strip=True)))
print(repr(soup.body.get_text("|", strip=True)), list(soup.p.stripped_strings))
print([type(s).__name__ for s in soup.body.descendants if not hasattr(s, "name") or s.name is None][:8])
print(soup.prettify())
print(soup.p.prettify(formatter="html"), soup.find_all("p")[1].decode(formatter="html5"))
print(str(soup.b), soup.b.decode_contents(), soup.p.encode_contents())
""",
)
_case(
    "bs4_lxml_broken_html_repair",
    """
from bs4 import BeautifulSoup
broken = "<div><p>one<p>two <b>bold <i>both</b> after</i><table><tr><td>a<td>b</table><li>stray<img src=x.png></div></span>trailing"
for parser in ["lxml", "html.parser"]:
    soup = BeautifulSoup(broken, parser)
    print(parser, "|", str(soup))
    print(parser, "|", [p.get_text() for p in soup.find_all("p")], len(soup.find_all("td")))
print(str(BeautifulSoup("<p>a</p>", "lxml")), str(BeautifulSoup("", "lxml")), str(BeautifulSoup("plain text", "lxml")))
print(str(BeautifulSoup("<html><head><title>t</title></head><body><p>x</body></html>", "lxml").head))
print(str(BeautifulSoup("<br/><hr><input value=a/>", "lxml").body))
""",
)
_case(
    "bs4_lxml_xml_namespaces",
    """
from bs4 import BeautifulSoup
rss = '''<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">
<channel><title>Feed</title>
<item><title>First &amp; best</title><link>https://example.com/1</link><dc:creator>Ann</dc:creator><media:content url="a.jpg" medium="image"/><category>x</category><category>y</category></item>
<item><title>Second</title><link>https://example.com/2</link><dc:creator>Bob</dc:creator><description><![CDATA[<p>html inside</p>]]></description></item>
</channel></rss>'''
for features in ["xml", "lxml-xml"]:
    soup = BeautifulSoup(rss, features)
    items = soup.find_all("item")
    print(features, len(items), [i.title.string for i in items], [i.find("dc:creator").text for i in items])
print(soup.find("media:content")["url"], soup.find("content").prefix, soup.find("content").namespace)
print([c.text for c in soup.find_all("category")], soup.rss["version"], soup.is_xml)
print([t.text for t in soup.select("dc|creator", namespaces={"dc": "http://purl.org/dc/elements/1.1/"})])
print(repr(soup.find("description").string), type(soup.find("description").string).__name__)
print(soup.item.prettify())
empty = BeautifulSoup("<root><a/><b></b><c>t</c></root>", "xml")
print(str(empty), empty.original_encoding)
print(BeautifulSoup(b'<?xml version="1.0" encoding="ISO-8859-1"?><r>caf\\xe9</r>', "xml").r.string)
""",
)
_case(
    "bs4_lxml_modify_tree",
    """
from bs4 import BeautifulSoup, Comment
soup = BeautifulSoup("<div id='main'><p class='a'>keep</p><p class='b'>drop me</p><span>wrap me</span><em>unwrap <b>me</b></em></div>", "lxml")
div = soup.find(id="main")
new = soup.new_tag("a", href="https://example.com", attrs={"data-k": "v"})
new.string = "link"
div.append(new)
div.insert(0, soup.new_string("lead "))
div.insert(1, Comment(" note "))
soup.find("p", class_="b").decompose()
soup.span.wrap(soup.new_tag("section"))
soup.em.unwrap()
soup.find("p", class_="a").string.replace_with("kept!")
soup.p["class"].append("extra")
soup.p["title"] = "t"
del soup.a["data-k"]
old = soup.b.extract()
print(old, old.parent)
print(div)
print(div.decode(formatter="minimal"), [c.name for c in div.children])
soup.p.insert_before(soup.new_tag("hr"))
soup.p.insert_after("after text")
print(div.encode(), len(list(div.descendants)))
print(BeautifulSoup("<p>a</p><p>b</p>", "lxml").find_all("p")[0].find_next_sibling().string)
""",
)
_case(
    "bs4_lxml_encoding_and_warnings",
    """
from bs4 import BeautifulSoup, UnicodeDammit
data = '<html><head><meta charset="iso-8859-1"><title>Caf\\xe9</title></head><body><p>na\\xefve \\xbd</p></body></html>'.encode("latin-1")
soup = BeautifulSoup(data, "lxml")
print(soup.original_encoding, soup.title.string, soup.p.string, soup.declared_html_encoding if hasattr(soup, "declared_html_encoding") else "")
soup = BeautifulSoup("<p>caf\\xe9</p>".encode("cp1252"), "lxml", from_encoding="cp1252")
print(soup.original_encoding, soup.p.string)
soup = BeautifulSoup("<p>smart \\u201cquotes\\u201d</p>".encode("utf-8"), "lxml", from_encoding="utf-8")
print(soup.p.string, soup.p.encode("ascii"), soup.p.encode("latin-1"))
dammit = UnicodeDammit("Sacr\\xe9 bleu!".encode("latin-1"), ["latin-1"])
print(dammit.unicode_markup, dammit.original_encoding)
xml_soup = BeautifulSoup('<?xml version="1.0"?><root><item>1</item></root>', "lxml")
print(xml_soup.find("item").text, xml_soup.root is not None)
print(BeautifulSoup("https://example.com/page", "lxml").get_text())
""",
)
_case(
    "bs4_lxml_table_scrape",
    """
import csv
from bs4 import BeautifulSoup
html = '''<table class="data"><caption>Q1</caption>
<thead><tr><th>Region</th><th>Units</th><th>Revenue</th></tr></thead>
<tbody><tr><td>North</td><td>1,200</td><td>$3,400.50</td></tr><tr><td> South </td><td>800</td><td>$2,100.00</td></tr>
<tr><td>East</td><td>—</td><td>$0.00</td></tr></tbody><tfoot><tr><td>Total</td><td>2,000</td><td>$5,500.50</td></tr></tfoot></table>'''
soup = BeautifulSoup(html, "lxml")
table = soup.find("table", class_="data")
headers = [th.get_text(strip=True) for th in table.thead.find_all("th")]
rows = []
for tr in table.tbody.find_all("tr"):
    cells = [td.get_text(strip=True) for td in tr.find_all("td")]
    rows.append(dict(zip(headers, cells)))
for row in rows:
    units = int(row["Units"].replace(",", "")) if row["Units"][0].isdigit() else None
    print(row["Region"], units, float(row["Revenue"].strip("$").replace(",", "")))
with open("table.csv", "w", newline="", encoding="utf-8") as f:
    w = csv.DictWriter(f, fieldnames=headers)
    w.writeheader()
    w.writerows(rows)
with open("table.csv", encoding="utf-8") as f:
    print(f.read())
print(table.caption.string, [td.text for td in table.tfoot.find_all("td")], len(soup.find_all("tr")))
""",
)

# --- Pillow: creating and drawing --------------------------------------------------------------

_case(
    "pil_new_modes_pixels",
    """
import hashlib
from PIL import Image
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
for mode, color in [("RGB", (255, 128, 0)), ("RGBA", (10, 20, 30, 40)), ("L", 200), ("1", 1), ("P", 5), ("I", -123456),
                    ("F", 3.25), ("CMYK", (1, 2, 3, 4)), ("LA", (9, 99)), ("I;16", 65000), ("HSV", (10, 200, 30)), ("YCbCr", (16, 128, 128))]:
    im = Image.new(mode, (7, 5), color)
    print(mode, im.size, im.getbands(), im.getpixel((3, 2)), len(im.tobytes()), h(im))
im = Image.new("RGB", (64, 48))
im.putdata([(x * 4, y * 5, (x * y) % 256) for y in range(48) for x in range(64)])
print(im.getpixel((10, 20)), im.getpixel((-1, -1)), h(im), im.getbbox(), im.getextrema())
im.putpixel((0, 0), (1, 2, 3))
print(im.getpixel((0, 0)), h(im), Image.new("RGB", (3, 3), "#0a0b0c").getpixel((1, 1)), Image.new("RGB", (1, 1), "rebeccapurple").getpixel((0, 0)))
print(Image.frombytes("L", (4, 2), bytes(range(8))).getpixel((3, 1)), list(Image.frombytes("RGB", (2, 1), b"abcdef").getdata()))
""",
)
_case(
    "pil_draw_shapes",
    """
import hashlib
from PIL import Image, ImageDraw
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
im = Image.new("RGB", (200, 150), "white")
d = ImageDraw.Draw(im)
d.rectangle([10, 10, 60, 40], fill="red", outline="black", width=3)
d.ellipse((70, 10, 130, 60), fill=(0, 128, 255), outline=(0, 0, 0))
d.line([(0, 149), (199, 0)], fill="green", width=4)
d.line([(5, 100), (50, 120), (90, 90), (120, 140)], fill="purple", width=7, joint="curve")
d.polygon([(150, 10), (190, 40), (170, 80), (140, 60)], fill="yellow", outline="blue")
d.regular_polygon((100, 100, 25), 6, rotation=15, fill="orange")
d.arc((10, 60, 70, 120), start=30, end=270, fill="black", width=2)
d.pieslice((130, 90, 190, 145), 0, 120, fill="pink", outline="red")
d.chord((20, 120, 60, 148), 200, 340, fill="cyan")
d.rounded_rectangle((80, 130, 130, 148), radius=6, fill="gray", outline="black")
d.point([(i, i // 2) for i in range(0, 200, 3)], fill="magenta")
print(h(im), im.getbbox(), len(im.getcolors(100000)))
print(sorted(im.getcolors(100000), reverse=True)[:5])
rgba = Image.new("RGBA", (60, 60), (0, 0, 0, 0))
da = ImageDraw.Draw(rgba, "RGBA")
da.ellipse((5, 5, 55, 55), fill=(255, 0, 0, 128))
da.rectangle((20, 20, 40, 40), fill=(0, 0, 255, 200))
print(h(rgba), rgba.getbbox(), rgba.getpixel((30, 30)), rgba.getpixel((10, 30)), rgba.getchannel("A").getextrema())
mask = Image.new("1", (40, 40))
dm = ImageDraw.Draw(mask)
dm.ellipse((0, 0, 39, 39), fill=1)
print(h(mask), sum(mask.getdata()) // 255, mask.getbbox())
ImageDraw.floodfill(im, (35, 25), (1, 2, 3), thresh=10)
print(h(im), im.getpixel((35, 25)))
""",
)
_case(
    "pil_draw_bitmap_font_text",
    """
import hashlib
from PIL import Image, ImageDraw, ImageFont
font = ImageFont.load_default_imagefont()
im = Image.new("L", (160, 40), 0)
d = ImageDraw.Draw(im)
d.text((4, 4), "Hello, bitmap 123!", fill=255, font=font)
d.multiline_text((4, 18), "two\\nlines", fill=128, font=font, spacing=2)
print(type(font).__name__, font.getbbox("Hello"), d.textlength("Hello", font=font), d.textbbox((4, 4), "Hello, bitmap 123!", font=font))
print(im.getbbox(), sum(1 for p in im.getdata() if p), hashlib.sha256(im.tobytes()).hexdigest()[:16])
print(d.multiline_textbbox((4, 18), "two\\nlines", font=font, spacing=2), font.getmask("abc").size)
""",
)

# --- Pillow: geometry, modes, filters ----------------------------------------------------------

_case(
    "pil_resize_filters",
    """
import hashlib
from PIL import Image
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
im = Image.new("RGB", (64, 48))
im.putdata([(x * 4, y * 5, (x * y) % 256) for y in range(48) for x in range(64)])
for name in ["NEAREST", "BOX", "BILINEAR", "HAMMING", "BICUBIC", "LANCZOS"]:
    f = getattr(Image.Resampling, name)
    down = im.resize((23, 17), f)
    up = im.resize((150, 100), f)
    print(name, down.size, h(down), down.getpixel((11, 8)), up.size, h(up), up.getpixel((75, 50)))
print(h(im.resize((32, 24), Image.Resampling.LANCZOS, box=(8, 8, 40, 32))), h(im.resize((16, 12), Image.Resampling.BICUBIC, reducing_gap=2.0)))
g = im.convert("L")
print(h(g.resize((100, 75), Image.Resampling.BICUBIC)), h(im.convert("F").resize((30, 30), Image.Resampling.BILINEAR)))
t = im.copy()
t.thumbnail((40, 40))
print(t.size, h(t), h(im.reduce(3)), im.reduce((2, 4)).size)
rgba = im.convert("RGBA")
rgba.putalpha(128)
print(h(rgba.resize((20, 20), Image.Resampling.LANCZOS)), h(im.convert("I").resize((10, 10), Image.Resampling.NEAREST)))
""",
)
_case(
    "pil_convert_modes",
    """
import hashlib
from PIL import Image
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
im = Image.new("RGB", (64, 48))
im.putdata([(x * 4, y * 5, (x * y) % 256) for y in range(48) for x in range(64)])
for mode in ["L", "RGBA", "1", "CMYK", "LA", "I", "F", "P", "YCbCr", "HSV", "RGBX", "La", "I;16"]:
    try:
        c = im.convert(mode)
        print(mode, c.mode, h(c), c.getpixel((20, 30)))
    except ValueError as e:
        print(mode, type(e).__name__, e)
print(h(im.convert("1", dither=Image.Dither.NONE)), h(im.convert("L").convert("1")))
p = im.convert("P", palette=Image.Palette.ADAPTIVE, colors=16)
print(p.mode, h(p), len(p.getcolors()), p.getpalette()[:12], h(p.convert("RGB")))
web = im.convert("P", palette=Image.Palette.WEB, dither=Image.Dither.NONE)
print(h(web), len(web.getcolors()), h(im.convert("P")))
print(h(im.convert("RGBA").convert("CMYK").convert("RGB")), h(im.convert("L", (0.5, 0.3, 0.2, 0))))
print(im.convert("F").getpixel((63, 47)), im.convert("I").getextrema(), im.convert("L").getextrema())
for method in [Image.Quantize.MEDIANCUT, Image.Quantize.MAXCOVERAGE, Image.Quantize.FASTOCTREE]:
    q = im.quantize(colors=8, method=method)
    print(method.name, h(q), len(q.getcolors()))
try:
    im.quantize(colors=8, method=Image.Quantize.LIBIMAGEQUANT)
except ValueError as e:
    print("LIBIMAGEQUANT", type(e).__name__, e)
""",
)
_case(
    "pil_crop_paste_composite",
    """
import hashlib
from PIL import Image
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
im = Image.new("RGB", (64, 48))
im.putdata([(x * 4, y * 5, (x * y) % 256) for y in range(48) for x in range(64)])
c = im.crop((10, 5, 50, 35))
print(c.size, h(c), h(im.crop((-5, -5, 10, 10))))
canvas = Image.new("RGB", (100, 80), "white")
canvas.paste(c, (5, 5))
canvas.paste((255, 0, 0), (60, 40, 90, 70))
mask = Image.new("L", c.size, 0)
mask.paste(255, (10, 10, 30, 20))
canvas.paste(c, (50, 2), mask)
print(h(canvas))
a = Image.new("RGBA", (40, 40), (255, 0, 0, 160))
b = Image.new("RGBA", (40, 40), (0, 0, 255, 100))
print(h(Image.alpha_composite(a, b)), Image.alpha_composite(a, b).getpixel((0, 0)))
print(h(Image.blend(im, im.transpose(Image.Transpose.FLIP_LEFT_RIGHT), 0.3)))
print(h(Image.composite(im, Image.new("RGB", im.size, "black"), im.convert("L"))))
base = Image.new("RGBA", (50, 50), (255, 255, 255, 255))
base.alpha_composite(a.resize((20, 20)), dest=(5, 5))
print(h(base), base.getpixel((10, 10)))
r, g, b2 = im.split()
print(h(Image.merge("RGB", (b2, r, g))), h(im.getchannel("G")))
""",
)
_case(
    "pil_rotate_transpose_transform",
    """
import hashlib
from PIL import Image
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
im = Image.new("RGB", (64, 48))
im.putdata([(x * 4, y * 5, (x * y) % 256) for y in range(48) for x in range(64)])
for angle in [90, 180, 270, 45, 33, -12.5]:
    for expand in [False, True]:
        r = im.rotate(angle, expand=expand)
        print(angle, expand, r.size, h(r))
print(h(im.rotate(33, resample=Image.Resampling.BICUBIC, expand=True, fillcolor="white")))
print(h(im.rotate(45, resample=Image.Resampling.BILINEAR, center=(0, 0), translate=(5, 3))))
for t in Image.Transpose:
    print(t.name, im.transpose(t).size, h(im.transpose(t)))
print(h(im.transform((40, 30), Image.Transform.AFFINE, (1, 0.2, 3, 0.1, 1, 2), resample=Image.Resampling.BILINEAR)))
print(h(im.transform((40, 30), Image.Transform.EXTENT, (10, 5, 50, 35))))
print(h(im.transform((40, 30), Image.Transform.PERSPECTIVE, (1, 0.1, 0, 0.05, 1, 0, 0.001, 0.002), Image.Resampling.BICUBIC)))
print(h(im.transform((40, 30), Image.Transform.QUAD, (0, 0, 5, 47, 60, 40, 63, 2))))
""",
)
_case(
    "pil_imageops",
    """
import hashlib
from PIL import Image, ImageOps
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
im = Image.new("RGB", (64, 48))
im.putdata([(x * 3 + 20, y * 4 + 10, (x * y) % 200 + 30) for y in range(48) for x in range(64)])
ops = {
    "grayscale": ImageOps.grayscale(im), "invert": ImageOps.invert(im), "autocontrast": ImageOps.autocontrast(im),
    "autocontrast_cut": ImageOps.autocontrast(im, cutoff=(2, 5)), "autocontrast_pres": ImageOps.autocontrast(im, preserve_tone=True),
    "equalize": ImageOps.equalize(im), "posterize": ImageOps.posterize(im, 3), "solarize": ImageOps.solarize(im, 128),
    "mirror": ImageOps.mirror(im), "flip": ImageOps.flip(im), "fit": ImageOps.fit(im, (30, 30)),
    "fit_centering": ImageOps.fit(im, (40, 20), method=Image.Resampling.BICUBIC, centering=(0.2, 0.8)),
    "pad": ImageOps.pad(im, (80, 80), color="red"), "contain": ImageOps.contain(im, (50, 50)), "cover": ImageOps.cover(im, (50, 50)),
    "expand": ImageOps.expand(im, border=(3, 4, 5, 6), fill=(0, 255, 0)), "crop": ImageOps.crop(im, 5), "scale": ImageOps.scale(im, 0.5),
    "colorize": ImageOps.colorize(ImageOps.grayscale(im), black="navy", white="gold", mid="red"),
}
for name, out in ops.items():
    print(name, out.mode, out.size, h(out))
print(ImageOps.equalize(ImageOps.grayscale(im)).histogram()[::32])
""",
)
_case(
    "pil_imageops_exif_transpose",
    """
import hashlib
from PIL import Image, ImageOps
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
im = Image.new("RGB", (30, 20))
im.putdata([(x * 8, y * 12, 100) for y in range(20) for x in range(30)])
for orientation in range(1, 9):
    exif = Image.Exif()
    exif[0x0112] = orientation
    im.save(f"o{orientation}.png", exif=exif.tobytes())
    with Image.open(f"o{orientation}.png") as src:
        out = ImageOps.exif_transpose(src)
        print(orientation, src.getexif().get(0x0112), out.size, h(out), out.getexif().get(0x0112))
with Image.open("o6.png") as src:
    ImageOps.exif_transpose(src, in_place=True)
    print(src.size, h(src), dict(src.getexif()))
""",
)
_case(
    "pil_filters",
    """
import hashlib
from PIL import Image, ImageFilter
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
im = Image.new("RGB", (64, 48))
im.putdata([(x * 4, (x * 37 + y * 91) % 256, ((x // 8 + y // 8) % 2) * 255) for y in range(48) for x in range(64)])
filters = [ImageFilter.BLUR, ImageFilter.GaussianBlur(2), ImageFilter.GaussianBlur((1, 3)), ImageFilter.SHARPEN, ImageFilter.EDGE_ENHANCE,
           ImageFilter.EDGE_ENHANCE_MORE, ImageFilter.FIND_EDGES, ImageFilter.CONTOUR, ImageFilter.EMBOSS, ImageFilter.DETAIL,
           ImageFilter.SMOOTH, ImageFilter.SMOOTH_MORE, ImageFilter.MedianFilter(3), ImageFilter.MinFilter(3), ImageFilter.MaxFilter(5),
           ImageFilter.ModeFilter(3), ImageFilter.UnsharpMask(radius=2, percent=150, threshold=3), ImageFilter.BoxBlur(3),
           ImageFilter.BoxBlur(0), ImageFilter.RankFilter(5, 12), ImageFilter.Kernel((3, 3), [1, 2, 1, 2, 4, 2, 1, 2, 1], scale=16)]
for f in filters:
    out = im.filter(f)
    print(getattr(f, "name", ""), h(out), out.getpixel((20, 20)))
g = im.convert("L")
print(h(g.filter(ImageFilter.GaussianBlur(2))), h(g.filter(ImageFilter.FIND_EDGES)), h(im.convert("F").convert("L").filter(ImageFilter.SHARPEN)))
print(h(im.convert("RGBA").filter(ImageFilter.GaussianBlur(1.5))))
""",
)
_case(
    "pil_chops_stat_enhance",
    """
import hashlib
from PIL import Image, ImageChops, ImageEnhance, ImageStat
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
a = Image.new("RGB", (40, 30))
a.putdata([(x * 6, y * 8, 128) for y in range(30) for x in range(40)])
b = a.transpose(Image.Transpose.ROTATE_180)
for name in ["difference", "add", "subtract", "multiply", "screen", "lighter", "darker", "add_modulo", "subtract_modulo", "overlay", "soft_light", "hard_light"]:
    print(name, h(getattr(ImageChops, name)(a, b)))
print(h(ImageChops.add(a, b, scale=2.0, offset=10)), h(ImageChops.offset(a, 7, -3)), h(ImageChops.invert(a)), ImageChops.difference(a, a).getbbox())
m1 = Image.new("1", (10, 10))
m1.paste(1, (0, 0, 5, 10))
m2 = m1.transpose(Image.Transpose.ROTATE_90)
print(h(ImageChops.logical_and(m1, m2)), h(ImageChops.logical_or(m1, m2)), h(ImageChops.logical_xor(m1, m2)))
st = ImageStat.Stat(a)
print([round(x, 6) for x in st.mean], st.median, [round(x, 6) for x in st.stddev], st.extrema, st.count, st.sum, [round(x, 4) for x in st.rms])
print(ImageStat.Stat(a.convert("L"), mask=Image.new("L", a.size, 255).crop((0, 0, 20, 30)).resize(a.size)).mean)
for enh in [ImageEnhance.Brightness, ImageEnhance.Contrast, ImageEnhance.Color, ImageEnhance.Sharpness]:
    print(enh.__name__, h(enh(a).enhance(1.7)), h(enh(a).enhance(0.3)))
""",
)
_case(
    "pil_histogram_colors_point",
    """
import hashlib
from PIL import Image
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
im = Image.new("RGB", (64, 48))
im.putdata([((x // 8) * 32, (y // 12) * 60, 90) for y in range(48) for x in range(64)])
hist = im.histogram()
print(len(hist), sum(hist), [i for i, v in enumerate(hist[:256]) if v], hist[256 + 60])
colors = im.getcolors()
print(len(colors), sorted(colors)[:3], im.getcolors(maxcolors=10))
print(im.convert("L").histogram(mask=Image.new("1", im.size, 1))[:3], im.convert("L").entropy() > 0)
lut = im.point(lambda v: 255 - v if v > 100 else v // 2)
print(h(lut), h(im.convert("L").point(lambda v: v > 100 and 255)), h(im.point([i // 4 for i in range(256)] * 3)))
print(h(im.convert("I").point(lambda v: v * 3 + 7)), im.convert("F").point(lambda v: v * 0.5).getextrema())
print(im.convert("L").getextrema(), im.getextrema(), im.getbbox(), Image.new("L", (5, 5)).getbbox())
print(im.getprojection()[0][:10], im.getprojection()[1][:3])
p = im.convert("P", palette=Image.Palette.ADAPTIVE, colors=32)
print(len(p.getcolors()), p.palette.mode, len(p.getpalette()), h(p.remap_palette(list(range(31, -1, -1)))))
""",
)
_case(
    "pil_numpy_roundtrip",
    """
import hashlib
import numpy as np
from PIL import Image
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
arr = np.zeros((30, 40, 3), dtype=np.uint8)
arr[..., 0] = np.arange(40, dtype=np.uint8) * 6
arr[..., 1] = (np.arange(30, dtype=np.uint8) * 8)[:, None]
arr[10:20, 10:30, 2] = 255
im = Image.fromarray(arr)
print(im.mode, im.size, h(im))
back = np.asarray(im)
print(back.shape, back.dtype, back.flags.writeable, int(back.sum()), np.array_equal(back, arr))
gray = np.asarray(im.convert("L"), dtype=np.float64)
print(gray.shape, round(float(gray.mean()), 6), int(gray.max()), gray[15, 20])
print(Image.fromarray((gray > 100).astype(np.uint8) * 255).mode, Image.fromarray(gray.astype(np.float32)).mode, Image.fromarray(np.ones((2, 2), dtype=bool)).mode)
print(Image.fromarray(np.arange(12, dtype=np.int32).reshape(3, 4)).getpixel((3, 2)), Image.fromarray(np.zeros((4, 4, 4), dtype=np.uint8)).mode)
print(np.asarray(Image.new("I;16", (3, 2), 500)).dtype, np.asarray(Image.new("1", (3, 2), 1)).dtype, np.array(im.convert("RGBA")).shape)
""",
)

# --- Pillow: file formats (lossless: decoded pixels, never file sizes) -------------------------

_case(
    "pil_png_roundtrip",
    """
import hashlib
from PIL import Image, PngImagePlugin
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
im = Image.new("RGB", (64, 48))
im.putdata([(x * 4, y * 5, (x * y) % 256) for y in range(48) for x in range(64)])
variants = {"rgb": im, "rgba": im.convert("RGBA"), "l": im.convert("L"), "la": im.convert("LA"), "1": im.convert("1"),
            "p": im.convert("P", palette=Image.Palette.ADAPTIVE, colors=64), "i16": im.convert("I").point(lambda v: v * 200).convert("I;16")}
for name, src in variants.items():
    for opts in [{}, {"optimize": True}, {"compress_level": 0}, {"compress_level": 1}, {"compress_level": 9}]:
        src.save(f"{name}.png", **opts)
        with Image.open(f"{name}.png") as back:
            print(name, opts, back.format, back.mode, back.size, h(back), h(back) == h(src))
info = PngImagePlugin.PngInfo()
info.add_text("Title", "Test image")
info.add_text("Comment", "compressed note", zip=True)
info.add_itxt("Author", "Zoë", lang="en", tkey="Author")
im.save("meta.png", pnginfo=info, dpi=(150, 150))
with Image.open("meta.png") as back:
    print(sorted(back.text.items()), tuple(round(v, 2) for v in back.info["dpi"]))
p = im.convert("P", palette=Image.Palette.ADAPTIVE, colors=16)
p.save("transparent.png", transparency=3)
with Image.open("transparent.png") as back:
    print(back.mode, back.info.get("transparency"), h(back.convert("RGBA")))
""",
)
_case(
    "pil_gif_animated",
    """
import hashlib
from PIL import Image, ImageDraw, ImageSequence
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
frames = []
for i in range(5):
    f = Image.new("RGB", (40, 30), (20 * i, 40, 200 - 30 * i))
    d = ImageDraw.Draw(f)
    d.rectangle((i * 6, 5, i * 6 + 10, 25), fill=(255, 255, 0))
    frames.append(f)
frames[0].save("anim.gif", save_all=True, append_images=frames[1:], duration=[100, 120, 140, 160, 180], loop=0, disposal=2)
with open("anim.gif", "rb") as f:
    data = f.read()
print(len(data), hashlib.sha256(data).hexdigest()[:16])
with Image.open("anim.gif") as gif:
    print(gif.format, gif.mode, gif.size, gif.n_frames, gif.is_animated, gif.info.get("loop"), gif.info.get("duration"))
    for i, frame in enumerate(ImageSequence.Iterator(gif)):
        print(i, frame.info.get("duration"), frame.disposal_method, h(frame.convert("RGB")))
    gif.seek(3)
    print(gif.tell(), h(gif.convert("RGB")))
single = frames[2].convert("P", palette=Image.Palette.ADAPTIVE, colors=8)
single.save("single.gif", transparency=0, comment=b"made by a test")
with Image.open("single.gif") as g:
    print(g.mode, g.info.get("transparency"), g.info.get("comment"), h(g), len(g.getpalette()))
frames[1].convert("L").save("gray.gif")
with Image.open("gray.gif") as g:
    print(g.mode, h(g.convert("L")), h(frames[1].convert("L")))
""",
)
_case(
    "pil_bmp_roundtrip",
    """
import hashlib
from PIL import Image
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
im = Image.new("RGB", (37, 21))
im.putdata([(x * 6, y * 12, (x + y) * 4) for y in range(21) for x in range(37)])
for mode in ["RGB", "RGBA", "L", "1", "P"]:
    src = im.convert(mode)
    src.save(f"img_{mode}.bmp")
    with open(f"img_{mode}.bmp", "rb") as f:
        data = f.read()
    with Image.open(f"img_{mode}.bmp") as back:
        print(mode, len(data), hashlib.sha256(data).hexdigest()[:16], back.mode, back.size, h(back) == h(src))
im.save("dpi.bmp", dpi=(96, 96))
with Image.open("dpi.bmp") as back:
    print(tuple(round(v) for v in back.info["dpi"]), back.info.get("compression"))
""",
)
_case(
    "pil_tiff_compressions",
    """
import hashlib
from PIL import Image
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
im = Image.new("RGB", (64, 48))
im.putdata([(x * 4, y * 5, (x * y) % 256) for y in range(48) for x in range(64)])
for comp in [None, "raw", "tiff_deflate", "tiff_adobe_deflate", "tiff_lzw", "packbits"]:
    for mode in ["RGB", "L", "RGBA", "I;16", "1"]:
        src = im.convert(mode) if mode != "I;16" else im.convert("I").point(lambda v: v * 250).convert("I;16")
        opts = {} if comp is None else {"compression": comp}
        src.save("t.tif", **opts)
        with Image.open("t.tif") as back:
            print(comp, mode, back.mode, back.info.get("compression"), h(back) == h(src), h(back))
src = im.convert("1")
src.save("g4.tif", compression="group4")
with Image.open("g4.tif") as back:
    print("group4", back.mode, back.info.get("compression"), h(back) == h(src))
pages = [im, im.convert("L"), im.rotate(90, expand=True)]
pages[0].save("multi.tif", save_all=True, append_images=pages[1:], compression="tiff_lzw", dpi=(300, 300))
with Image.open("multi.tif") as t:
    print(t.n_frames)
    for i in range(t.n_frames):
        t.seek(i)
        print(i, t.mode, t.size, h(t), tuple(round(float(v)) for v in t.info.get("dpi", (0, 0))))
    t.seek(0)
    print(sorted(k for k in t.tag_v2.keys() if k in (256, 257, 258, 259, 262, 277, 282, 283, 284, 296)))
    print(t.tag_v2[259], t.tag_v2[262], t.tag_v2[277], t.tag_v2[258])
""",
)
_case(
    "pil_webp_lossless",
    """
import hashlib
from PIL import Image
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
im = Image.new("RGB", (64, 48))
im.putdata([(x * 4, y * 5, (x * y) % 256) for y in range(48) for x in range(64)])
rgba = im.convert("RGBA")
rgba.putalpha(Image.linear_gradient("L").resize(im.size))
for name, src, opts in [("rgb", im, {}), ("rgba_exact", rgba, {"exact": True}), ("rgb_q0", im, {"quality": 0, "method": 0}), ("rgb_m6", im, {"quality": 100, "method": 6})]:
    src.save(f"{name}.webp", lossless=True, **opts)
    with Image.open(f"{name}.webp") as back:
        print(name, back.format, back.mode, back.size, h(back) == h(src), h(back))
frames = [Image.new("RGB", (20, 20), (i * 60, 100, 255 - i * 60)) for i in range(4)]
frames[0].save("anim.webp", save_all=True, append_images=frames[1:], lossless=True, duration=80, loop=2)
with Image.open("anim.webp") as a:
    print(a.n_frames, a.is_animated, a.info.get("loop"), a.info.get("duration"))
    for i in range(a.n_frames):
        a.seek(i)
        print(i, a.mode, h(a.convert("RGB")) == h(frames[i]))
""",
)
_case(
    "pil_webp_lossy_roundtrip",
    """
from PIL import Image
im = Image.new("RGB", (64, 48))
im.putdata([(x * 4, y * 5, (x * y) % 256) for y in range(48) for x in range(64)])
for q in [10, 50, 80, 100]:
    im.save(f"q{q}.webp", quality=q)
    with Image.open(f"q{q}.webp") as back:
        back.load()
        print(q, back.format, back.mode, back.size)
rgba = im.convert("RGBA")
rgba.putalpha(200)
rgba.save("alpha.webp", quality=70)
with Image.open("alpha.webp") as back:
    print(back.mode, back.size, back.getchannel("A").getextrema())
""",
)
_case(
    "pil_ico_sizes",
    """
import hashlib
from PIL import Image, ImageDraw
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
im = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
d = ImageDraw.Draw(im)
d.ellipse((4, 4, 60, 60), fill=(30, 120, 220, 255), outline=(0, 0, 0, 255), width=3)
d.rectangle((24, 24, 40, 40), fill=(255, 200, 0, 255))
im.save("icon.ico", sizes=[(16, 16), (32, 32), (48, 48), (64, 64)])
with Image.open("icon.ico") as ico:
    print(ico.format, ico.size, ico.mode, sorted(ico.ico.sizes()), sorted(ico.info["sizes"]))
    for size in sorted(ico.ico.sizes()):
        ico.size = size
        ico.load()
        print(size, ico.mode, h(ico), h(ico) == h(im.resize(size, Image.Resampling.LANCZOS)))
im.save("bmp.ico", sizes=[(32, 32)], bitmap_format="bmp")
with Image.open("bmp.ico") as ico:
    print(ico.size, ico.mode, h(ico))
""",
)
_case(
    "pil_open_bytesio_formats",
    """
import hashlib
import io
from PIL import Image
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
im = Image.new("RGB", (33, 17))
im.putdata([(x * 7, y * 15, 77) for y in range(17) for x in range(33)])
for fmt in ["PNG", "GIF", "BMP", "TIFF", "WEBP", "PPM", "TGA", "PCX", "ICO", "IM", "SGI", "QOI", "DDS", "XBM"]:
    buf = io.BytesIO()
    try:
        src = im.convert("1") if fmt == "XBM" else im
        src.save(buf, format=fmt, **({"lossless": True} if fmt == "WEBP" else {}))
    except (KeyError, OSError, ValueError) as e:
        print(fmt, "save", type(e).__name__, e)
        continue
    buf.seek(0)
    try:
        with Image.open(buf) as back:
            back.load()
            print(fmt, back.format, back.mode, back.size, h(back) == h(src) if fmt != "GIF" else h(back.convert("RGB")))
    except Exception as e:
        print(fmt, "open", type(e).__name__, str(e).split(" <")[0])
with Image.open(io.BytesIO(b"P2\\n2 2\\n255\\n0 64 128 255\\n")) as pgm:
    print(pgm.format, pgm.mode, list(pgm.getdata()))
""",
)
_case(
    "pil_corrupt_files",
    """
import hashlib
import io
from PIL import Image, ImageFile, UnidentifiedImageError
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
im = Image.new("RGB", (40, 30))
im.putdata([(x * 6, y * 8, 50) for y in range(30) for x in range(40)])
im.save("good.bmp")
with open("good.bmp", "rb") as f:
    bmp = f.read()
with open("truncated.bmp", "wb") as f:
    f.write(bmp[: len(bmp) // 2])
im.save("good.png", compress_level=0)
with open("good.png", "rb") as f:
    png = f.read()
with open("header_only.png", "wb") as f:
    f.write(png[:33])
with open("bad_crc.png", "wb") as f:
    f.write(png[:60] + bytes([png[60] ^ 0xFF]) + png[61:])
with open("garbage.jpg", "wb") as f:
    f.write(b"\\xff\\xd8\\xff\\xe0" + bytes(range(256)) * 4)
with open("notimage.png", "wb") as f:
    f.write(b"hello world, not an image")
with open("empty.gif", "wb") as f:
    pass
for name in ["truncated.bmp", "header_only.png", "bad_crc.png", "garbage.jpg", "notimage.png", "empty.gif", "missing.png"]:
    try:
        with Image.open(name) as src:
            print(name, "opened", src.format, src.size)
            src.load()
            print(name, "loaded", h(src))
    except (OSError, SyntaxError, ValueError) as e:
        print(name, type(e).__name__, "|", e)
try:
    Image.open(io.BytesIO(b"nope"))
except UnidentifiedImageError as e:
    print(type(e).__name__, str(e).split(" <")[0])
ImageFile.LOAD_TRUNCATED_IMAGES = True
try:
    with Image.open("truncated.bmp") as src:
        src.load()
        print("LOAD_TRUNCATED_IMAGES", src.size, h(src), src.getpixel((5, 25)), src.getpixel((5, 2)))
finally:
    ImageFile.LOAD_TRUNCATED_IMAGES = False
with Image.open("good.png") as src:
    src.verify()
    print("verified", src.format)
with Image.open("bad_crc.png") as src:
    try:
        src.verify()
    except SyntaxError as e:
        print("verify", type(e).__name__, "|", e)
""",
)

# --- Pillow: lossy codecs and fonts (may differ with the C library's version) -------------------

_case(
    "pil_jpeg_quality_roundtrip",
    """
import hashlib
from PIL import Image
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
im = Image.new("RGB", (64, 48))
im.putdata([(x * 4, y * 5, (x * y) % 256) for y in range(48) for x in range(64)])
for q in [75, 95]:
    for sub in [None, 0, 2]:
        opts = {"quality": q} if sub is None else {"quality": q, "subsampling": sub}
        im.save("out.jpg", **opts)
        with open("out.jpg", "rb") as f:
            size = len(f.read())
        with Image.open("out.jpg") as back:
            print(q, sub, size, back.format, back.mode, back.size, h(back), back.getpixel((32, 24)))
im.convert("L").save("gray.jpg", quality=90)
with Image.open("gray.jpg") as back:
    print(back.mode, h(back))
im.convert("CMYK").save("cmyk.jpg")
with Image.open("cmyk.jpg") as back:
    print(back.mode, h(back))
""",
)
_case(
    "pil_jpeg_progressive_draft",
    """
import hashlib
from PIL import Image
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
im = Image.new("RGB", (128, 96))
im.putdata([(x * 2, y * 2, (x * y) % 256) for y in range(96) for x in range(128)])
im.save("prog.jpg", quality=85, progressive=True, optimize=True, dpi=(72, 72))
im.save("base.jpg", quality=85)
for name in ["prog.jpg", "base.jpg"]:
    with open(name, "rb") as f:
        size = len(f.read())
    with Image.open(name) as back:
        print(name, size, back.info.get("progressive"), back.info.get("progression"), back.info.get("jfif"), back.info.get("dpi"), h(back))
with Image.open("base.jpg") as d:
    d.draft("L", (32, 24))
    print(d.mode, d.size, h(d))
""",
)
_case(
    "pil_jpeg_exif_roundtrip",
    """
from PIL import ExifTags, Image
im = Image.new("RGB", (32, 24), (120, 60, 30))
exif = Image.Exif()
exif[ExifTags.Base.Make] = "Cove"
exif[ExifTags.Base.Model] = "Test Camera"
exif[ExifTags.Base.Orientation] = 3
exif[ExifTags.Base.DateTime] = "2024:01:02 03:04:05"
exif[ExifTags.Base.ImageDescription] = "unit test"
exif[ExifTags.Base.XResolution] = 300
ifd = exif.get_ifd(ExifTags.IFD.Exif)
ifd[ExifTags.Base.DateTimeOriginal] = "2023:12:31 23:59:59"
ifd[ExifTags.Base.ExposureTime] = 0.004
im.save("exif.jpg", exif=exif, quality=90)
with Image.open("exif.jpg") as back:
    e = back.getexif()
    for tag in sorted(e):
        print(tag, ExifTags.TAGS.get(tag), e[tag])
    sub = e.get_ifd(ExifTags.IFD.Exif)
    print(sorted((ExifTags.TAGS.get(k), str(v)) for k, v in sub.items()))
    print("exif" in back.info, back.info["exif"][:6])
im.save("exif.png", exif=exif)
with Image.open("exif.png") as back:
    print(dict(sorted(back.getexif().items()))[ExifTags.Base.Make], back.getexif()[ExifTags.Base.Orientation])
""",
)
_case(
    "pil_jpeg_tiff_compression",
    """
import hashlib
from PIL import Image
def h(im):
    return hashlib.sha256(im.tobytes()).hexdigest()[:16]
im = Image.new("RGB", (64, 48))
im.putdata([(x * 4, y * 5, (x * y) % 256) for y in range(48) for x in range(64)])
for mode in ["RGB", "L"]:
    im.convert(mode).save(f"j_{mode}.tif", compression="jpeg", quality=80)
    with Image.open(f"j_{mode}.tif") as back:
        back.load()
        print(mode, back.mode, back.size, back.info.get("compression"), h(back))
""",
)
_case(
    "pil_jpeg_corrupt_truncated",
    """
import hashlib
from PIL import Image, ImageFile
im = Image.new("RGB", (64, 48))
im.putdata([(x * 4, y * 5, (x * y) % 256) for y in range(48) for x in range(64)])
im.save("ok.jpg", quality=90)
with open("ok.jpg", "rb") as f:
    data = f.read()
with open("cut.jpg", "wb") as f:
    f.write(data[: len(data) * 2 // 3])
try:
    with Image.open("cut.jpg") as src:
        print(src.format, src.size)
        src.load()
except OSError as e:
    print(type(e).__name__, "|", e)
ImageFile.LOAD_TRUNCATED_IMAGES = True
try:
    with Image.open("cut.jpg") as src:
        src.load()
        print("truncated load", src.size, hashlib.sha256(src.tobytes()).hexdigest()[:16])
finally:
    ImageFile.LOAD_TRUNCATED_IMAGES = False
""",
)
_case(
    "pil_text_default_font",
    """
import hashlib
from PIL import Image, ImageDraw, ImageFont
font = ImageFont.load_default(size=20)
im = Image.new("RGB", (300, 120), "white")
d = ImageDraw.Draw(im)
text = "Hello, Cove! 123"
print(type(font).__name__, font.getname(), font.size, font.getmetrics())
print(d.textbbox((10, 10), text, font=font), d.textlength(text, font=font), font.getbbox(text), font.getlength("W"))
d.text((10, 10), text, fill="black", font=font)
d.text((150, 80), "centered", fill=(200, 0, 0), font=font, anchor="mm")
d.text((10, 90), "outline", fill="white", font=font, stroke_width=2, stroke_fill="blue")
print(d.multiline_textbbox((10, 40), "line one\\nline two", font=font, spacing=4, align="center"))
d.multiline_text((10, 40), "line one\\nline two", fill="black", font=font, spacing=4, align="center")
print(im.getbbox(), len(im.getcolors(100000)), hashlib.sha256(im.tobytes()).hexdigest()[:16])
small = ImageFont.load_default()
print(type(small).__name__, small.getbbox("small text"), d.textlength("small text", font=small))
""",
)
_case(
    "pil_text_basic_layout",
    """
import hashlib
from PIL import Image, ImageDraw, ImageFont
font = ImageFont.load_default(size=20).font_variant(layout_engine=ImageFont.Layout.BASIC)
im = Image.new("L", (260, 40), 0)
d = ImageDraw.Draw(im)
for s in ["AVATAR WAVE", "fi fl office", "iiii", "MMMM", "Zoë naïve"]:
    print(repr(s), d.textlength(s, font=font), font.getbbox(s), font.getmask(s).size)
d.text((5, 5), "AVATAR WAVE", fill=255, font=font)
print(im.getbbox(), hashlib.sha256(im.tobytes()).hexdigest()[:16])
big = font.font_variant(size=48)
print(big.size, big.getbbox("Ag"), big.getmetrics())
""",
)

# --- python-docx: build, save, reopen; every part's bytes hashed (_PARTS) ----------------------

_case(
    "docx_headings_paragraphs_runs",
    """
import docx
from docx.enum.text import WD_ALIGN_PARAGRAPH, WD_UNDERLINE
from docx.shared import Pt, RGBColor
doc = docx.Document()
doc.add_heading("Quarterly Report", level=0)
doc.add_heading("1. Summary", level=1)
p = doc.add_paragraph("Revenue grew ")
r = p.add_run("12%")
r.bold = True
p.add_run(" while costs ")
r = p.add_run("fell")
r.italic = True
r.underline = WD_UNDERLINE.DOUBLE
p.add_run(".")
p.alignment = WD_ALIGN_PARAGRAPH.JUSTIFY
doc.add_heading("1.1 Details", level=2)
p = doc.add_paragraph()
r = p.add_run("Red 14pt Courier")
r.font.size = Pt(14)
r.font.name = "Courier New"
r.font.color.rgb = RGBColor(0xC0, 0x00, 0x00)
r = p.add_run(" superscript")
r.font.superscript = True
r = p.add_run(" strike")
r.font.strike = True
p.add_run("\\tafter tab").add_break()
p.add_run("after break")
doc.add_heading("Level 3", 3)
doc.add_paragraph("Centered", style="Title").alignment = WD_ALIGN_PARAGRAPH.CENTER
path = "report.docx"
doc.save(path)
back = docx.Document(path)
for para in back.paragraphs:
    print(para.style.name, "|", para.text.replace("\\n", "/").replace("\\t", "<TAB>"), "|", para.alignment)
    print("   ", [(run.text, run.bold, run.italic, run.underline, run.font.size.pt if run.font.size else None, str(run.font.color.rgb) if run.font.color and run.font.color.type else None, run.font.name) for run in para.runs])
""",
    _PARTS,
)
_case(
    "docx_tables_merged_cells",
    """
import docx
from docx.enum.table import WD_TABLE_ALIGNMENT
from docx.shared import Cm
doc = docx.Document()
doc.add_paragraph("Sales by region")
data = [("Region", "Q1", "Q2", "Q3"), ("North", 10, 12, 15), ("South", 7, 9, 11), ("East", 3, 4, 8)]
table = doc.add_table(rows=1, cols=4)
table.style = "Table Grid"
table.alignment = WD_TABLE_ALIGNMENT.CENTER
for cell, text in zip(table.rows[0].cells, data[0]):
    cell.text = text
    cell.paragraphs[0].runs[0].bold = True
for row in data[1:]:
    cells = table.add_row().cells
    for cell, value in zip(cells, row):
        cell.text = str(value)
total = table.add_row().cells
merged = total[0].merge(total[2])
merged.text = "Total (merged)"
total[3].text = str(sum(r[3] for r in data[1:]))
vert = table.cell(1, 0).merge(table.cell(2, 0))
vert.text = "North+South"
table.columns[0].width = Cm(4)
for cell in table.columns[0].cells:
    cell.width = Cm(4)
t2 = doc.add_table(rows=2, cols=2, style="Light Grid Accent 1")
t2.cell(0, 0).text = "a"
t2.cell(1, 1).add_paragraph("second paragraph in cell")
nested = t2.cell(0, 1).add_table(rows=1, cols=2)
nested.cell(0, 0).text = "nested"
path = "tables.docx"
doc.save(path)
back = docx.Document(path)
print(len(back.tables), [t.style.name for t in back.tables])
for t in back.tables:
    print(len(t.rows), len(t.columns))
    for row in t.rows:
        print("  ", [c.text for c in row.cells])
print([tc.text for tc in back.tables[1].cell(0, 1).tables[0].rows[0].cells])
tbl = back.tables[0]._tbl
print(len(tbl.xpath(".//w:gridSpan")), len(tbl.xpath(".//w:vMerge")), tbl.xpath("string(.//w:tr[last()]/w:tc[1]//w:t)"))
""",
    _PARTS,
)
_case(
    "docx_styles_lists_formatting",
    """
import docx
from docx.enum.style import WD_STYLE_TYPE
from docx.shared import Inches, Pt, RGBColor
doc = docx.Document()
styles = doc.styles
custom = styles.add_style("Callout", WD_STYLE_TYPE.PARAGRAPH)
custom.base_style = styles["Normal"]
custom.font.size = Pt(13)
custom.font.bold = True
custom.font.color.rgb = RGBColor(0x1F, 0x4E, 0x79)
custom.paragraph_format.space_before = Pt(12)
custom.paragraph_format.left_indent = Inches(0.5)
cstyle = styles.add_style("Code Char", WD_STYLE_TYPE.CHARACTER)
cstyle.font.name = "Consolas"
doc.add_paragraph("Important callout", style="Callout")
for item in ["alpha", "beta", "gamma"]:
    doc.add_paragraph(item, style="List Bullet")
for item in ["first", "second"]:
    doc.add_paragraph(item, style="List Number")
doc.add_paragraph("nested bullet", style="List Bullet 2")
doc.add_paragraph("A wise quote.", style="Intense Quote")
p = doc.add_paragraph("Run with ")
p.add_run("code", style="Code Char")
pf = p.paragraph_format
pf.line_spacing = 1.5
pf.first_line_indent = Inches(-0.25)
pf.space_after = Pt(6)
pf.keep_with_next = True
path = "styles.docx"
doc.save(path)
back = docx.Document(path)
for para in back.paragraphs:
    print(para.style.name, "|", para.text, "|", [r.style.name for r in para.runs])
st = back.styles["Callout"]
print(st.type, st.base_style.name, st.font.size.pt, st.font.bold, str(st.font.color.rgb), st.paragraph_format.left_indent.inches)
print(back.paragraphs[-1].paragraph_format.line_spacing, back.paragraphs[-1].paragraph_format.first_line_indent.inches)
print(len([s for s in back.styles if s.type == WD_STYLE_TYPE.PARAGRAPH]), len([s for s in back.styles if s.type == WD_STYLE_TYPE.TABLE]), "Heading 1" in [s.name for s in back.styles])
""",
    _PARTS,
)
_case(
    "docx_sections_breaks_headers",
    """
import docx
from docx.enum.section import WD_ORIENT, WD_SECTION
from docx.enum.text import WD_BREAK
from docx.shared import Cm, Mm
doc = docx.Document()
sec = doc.sections[0]
sec.page_width, sec.page_height = Mm(210), Mm(297)
sec.left_margin = sec.right_margin = Cm(2)
sec.header.paragraphs[0].text = "Company — confidential"
sec.footer.paragraphs[0].text = "Page footer"
doc.add_paragraph("Page one text.")
doc.add_page_break()
doc.add_paragraph("Page two text.")
doc.add_paragraph().add_run().add_break(WD_BREAK.COLUMN)
new = doc.add_section(WD_SECTION.NEW_PAGE)
new.orientation = WD_ORIENT.LANDSCAPE
new.page_width, new.page_height = sec.page_height, sec.page_width
new.header.is_linked_to_previous = False
new.header.paragraphs[0].text = "Landscape header"
new.different_first_page_header_footer = True
new.first_page_header.paragraphs[0].text = "First page only"
doc.add_paragraph("Landscape page.")
doc.add_section(WD_SECTION.CONTINUOUS)
doc.add_paragraph("Continuous section.")
path = "sections.docx"
doc.save(path)
back = docx.Document(path)
for s in back.sections:
    print(s.start_type, s.orientation, round(s.page_width.mm, 1), round(s.page_height.mm, 1), round(s.left_margin.cm, 2),
          s.header.is_linked_to_previous, [p.text for p in s.header.paragraphs], s.different_first_page_header_footer)
print([p.text for p in back.paragraphs])
body = back.element.body
print(len(body.xpath(".//w:br[@w:type='page']")), len(body.xpath(".//w:br[@w:type='column']")), len(body.xpath(".//w:sectPr")))
""",
    _PARTS,
)
_case(
    "docx_core_properties",
    """
import datetime as dt
import docx
doc = docx.Document()
doc.add_paragraph("Properties test")
cp = doc.core_properties
cp.author = "Ada Lovelace"
cp.title = "Analytical Notes"
cp.subject = "Engines"
cp.keywords = "math, engines"
cp.category = "Research"
cp.comments = "Generated in a test"
cp.last_modified_by = "Charles"
cp.revision = 7
cp.created = dt.datetime(2024, 1, 2, 3, 4, 5)
cp.modified = dt.datetime(2024, 6, 7, 8, 9, 10)
cp.last_printed = dt.datetime(2024, 6, 8, 0, 0, 0)
cp.language = "en-GB"
cp.content_status = "Draft"
cp.identifier = "doc-42"
cp.version = "1.0"
path = "props.docx"
doc.save(path)
back = docx.Document(path).core_properties
for name in ["author", "title", "subject", "keywords", "category", "comments", "last_modified_by", "revision", "created", "modified", "last_printed", "language", "content_status", "identifier", "version"]:
    print(name, repr(getattr(back, name)))
""",
    _PARTS,
)
_case(
    "docx_picture_from_pillow",
    """
import io
import docx
from docx.shared import Inches
from PIL import Image, ImageDraw
img = Image.new("RGB", (300, 200), "white")
d = ImageDraw.Draw(img)
for i, h in enumerate([40, 90, 150, 70, 120]):
    d.rectangle((20 + i * 55, 190 - h, 60 + i * 55, 190), fill=(40 * i, 100, 200 - 30 * i), outline="black")
buf = io.BytesIO()
img.save(buf, format="PNG", dpi=(100, 100))
buf.seek(0)
doc = docx.Document()
doc.add_heading("Chart", 1)
pic = doc.add_picture(buf, width=Inches(3))
doc.add_paragraph("Figure 1: bars")
img.save("chart.png")
doc.add_paragraph().add_run().add_picture("chart.png", height=Inches(1))
path = "picture.docx"
doc.save(path)
back = docx.Document(path)
for shape in back.inline_shapes:
    print(shape.type, shape.width, shape.height, round(shape.width.inches, 3), round(shape.height.inches, 3))
blips = back.element.body.xpath(".//a:blip/@r:embed")
print(blips, [back.part.related_parts[r].partname for r in blips], [back.part.related_parts[r].content_type for r in blips])
image = back.part.related_parts[blips[0]].image
print(image.px_width, image.px_height, image.horz_dpi, image.vert_dpi, image.ext, image.content_type, image.filename)
print(back.element.body.xpath("string(.//pic:cNvPr/@name)"), back.element.body.xpath(".//wp:docPr/@id"))
""",
    _PARTS,
)
_case(
    "docx_edit_existing_document",
    """
import copy
import docx
doc = docx.Document()
for i, text in enumerate(["Dear {name},", "Your order {order} has shipped.", "DELETE ME", "Regards,", "{sender}"]):
    doc.add_paragraph(text)
doc.add_table(rows=1, cols=2).rows[0].cells[0].text = "{order}"
doc.save("template.docx")
doc = docx.Document("template.docx")
values = {"{name}": "Ms. Smith", "{order}": "#1042", "{sender}": "The Shop"}
def fill(paragraph):
    for run in paragraph.runs:
        for key, value in values.items():
            if key in run.text:
                run.text = run.text.replace(key, value)
for p in doc.paragraphs:
    fill(p)
for t in doc.tables:
    for row in t.rows:
        for cell in row.cells:
            for p in cell.paragraphs:
                fill(p)
for p in list(doc.paragraphs):
    if p.text == "DELETE ME":
        p._element.getparent().remove(p._element)
dup = copy.deepcopy(doc.paragraphs[0]._p)
doc.paragraphs[-1]._p.addnext(dup)
doc.paragraphs[1].insert_paragraph_before("Inserted before line 2", style="Heading 2")
doc.paragraphs[0].runs[0].bold = True
path = "filled.docx"
doc.save(path)
back = docx.Document(path)
print([p.text for p in back.paragraphs], back.tables[0].cell(0, 0).text)
print([p.style.name for p in back.paragraphs], back.paragraphs[0].runs[0].bold)
print(len(back.element.body), [child.tag.split("}")[1] for child in back.element.body])
""",
    _PARTS,
)
_case(
    "docx_oxml_hyperlink_and_xpath",
    """
import docx
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
doc = docx.Document()
p = doc.add_paragraph("See ")
r_id = doc.part.relate_to("https://example.com/docs", RT.HYPERLINK, is_external=True)
link = OxmlElement("w:hyperlink")
link.set(qn("r:id"), r_id)
run = OxmlElement("w:r")
rpr = OxmlElement("w:rPr")
style = OxmlElement("w:rStyle")
style.set(qn("w:val"), "Hyperlink")
rpr.append(style)
run.append(rpr)
text = OxmlElement("w:t")
text.text = "the docs"
run.append(text)
link.append(run)
p._p.append(link)
p.add_run(" for details.")
shade = OxmlElement("w:shd")
shade.set(qn("w:val"), "clear")
shade.set(qn("w:fill"), "FFFF00")
p.runs[0]._r.get_or_add_rPr().append(shade)
field = doc.add_paragraph()._p
fld = OxmlElement("w:fldSimple")
fld.set(qn("w:instr"), "PAGE")
field.append(fld)
path = "links.docx"
doc.save(path)
back = docx.Document(path)
body = back.element.body
print(body.xpath("string(.//w:hyperlink)"), [back.part.rels[rid].target_ref for rid in body.xpath(".//w:hyperlink/@r:id")])
print(back.paragraphs[0].text, "|", [r.text for r in back.paragraphs[0].runs], body.xpath(".//w:shd/@w:fill"), body.xpath(".//w:fldSimple/@w:instr"))
print(back.paragraphs[0]._p.xml)
""",
    _PARTS,
)

# --- python-pptx: build, save, reopen; every part's bytes hashed (_PARTS) ----------------------

_case(
    "pptx_title_bullets_notes",
    """
from pptx import Presentation
from pptx.util import Pt
prs = Presentation()
s = prs.slides.add_slide(prs.slide_layouts[0])
s.shapes.title.text = "Project Update"
s.placeholders[1].text = "Team Cove — internal"
s = prs.slides.add_slide(prs.slide_layouts[1])
s.shapes.title.text = "Highlights"
tf = s.placeholders[1].text_frame
tf.text = "Shipped the guest"
for text, level in [("lxml and Pillow", 1), ("python-docx", 1), ("Next: charts", 0), ("deadline in Q3", 2)]:
    para = tf.add_paragraph()
    para.text = text
    para.level = level
tf.paragraphs[0].runs[0].font.bold = True
tf.paragraphs[0].runs[0].font.size = Pt(28)
s.notes_slide.notes_text_frame.text = "Mention the test suite.\\nKeep it short."
path = "deck.pptx"
prs.save(path)
back = Presentation(path)
print(len(back.slides), back.slide_width, back.slide_height)
for i, slide in enumerate(back.slides):
    print(i, slide.slide_layout.name, slide.has_notes_slide)
    for shape in slide.shapes:
        print("  ", shape.shape_id, shape.name, shape.shape_type, shape.is_placeholder, shape.placeholder_format.type if shape.is_placeholder else None)
        if shape.has_text_frame:
            print("     ", [(p.text, p.level) for p in shape.text_frame.paragraphs])
    if slide.has_notes_slide:
        print("   notes:", repr(slide.notes_slide.notes_text_frame.text))
print(back.slides[1].placeholders[1].text_frame.paragraphs[0].runs[0].font.size.pt)
""",
    _PARTS,
)
_case(
    "pptx_table_merged",
    """
from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.util import Inches, Pt
prs = Presentation()
s = prs.slides.add_slide(prs.slide_layouts[5])
s.shapes.title.text = "Results"
rows, cols = 5, 4
gf = s.shapes.add_table(rows, cols, Inches(0.5), Inches(1.5), Inches(9), Inches(3))
table = gf.table
data = [["Metric", "2022", "2023", "2024"], ["Users", "1,200", "3,400", "9,800"], ["Revenue", "$1.2M", "$2.9M", "$6.1M"], ["Churn", "5%", "4%", "3%"]]
for r, row in enumerate(data):
    for c, value in enumerate(row):
        table.cell(r, c).text = value
table.cell(4, 0).merge(table.cell(4, 3))
table.cell(4, 0).text = "Source: internal dashboard"
table.columns[0].width = Inches(3)
for c in range(cols):
    cell = table.cell(0, c)
    cell.fill.solid()
    cell.fill.fore_color.rgb = RGBColor(0x20, 0x40, 0x80)
    cell.text_frame.paragraphs[0].runs[0].font.size = Pt(16)
    cell.text_frame.paragraphs[0].runs[0].font.color.rgb = RGBColor(255, 255, 255)
table.first_row = True
table.horz_banding = False
path = "table.pptx"
prs.save(path)
back = Presentation(path)
t = [sh for sh in back.slides[0].shapes if sh.has_table][0].table
for r in range(len(t.rows)):
    print([(t.cell(r, c).text, t.cell(r, c).is_merge_origin, t.cell(r, c).is_spanned) for c in range(len(t.columns))])
print(t.cell(4, 0).span_width, t.cell(4, 0).span_height, [col.width for col in t.columns], t.first_row, t.horz_banding)
print(str(t.cell(0, 1).fill.fore_color.rgb), t.cell(0, 1).text_frame.paragraphs[0].runs[0].font.size.pt)
""",
    _PARTS,
)
_case(
    "pptx_chart_bar",
    """
import io
import openpyxl
from pptx import Presentation
from pptx.chart.data import CategoryChartData
from pptx.enum.chart import XL_CHART_TYPE, XL_LEGEND_POSITION, XL_LABEL_POSITION
from pptx.util import Inches, Pt
prs = Presentation()
s = prs.slides.add_slide(prs.slide_layouts[5])
s.shapes.title.text = "Sales"
cd = CategoryChartData()
cd.categories = ["North", "South", "East", "West"]
cd.add_series("2023", (19.2, 21.4, 16.7, 8.0))
cd.add_series("2024", (22.3, 28.6, 15.2, 12.5), number_format="0.0")
gf = s.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(1.5), Inches(8), Inches(5), cd)
chart = gf.chart
chart.has_legend = True
chart.legend.position = XL_LEGEND_POSITION.BOTTOM
chart.legend.include_in_layout = False
plot = chart.plots[0]
plot.has_data_labels = True
plot.data_labels.number_format = "0.0"
plot.data_labels.number_format_is_linked = False
plot.data_labels.position = XL_LABEL_POSITION.OUTSIDE_END
plot.data_labels.font.size = Pt(10)
chart.value_axis.maximum_scale = 40
chart.value_axis.has_major_gridlines = False
chart.category_axis.tick_labels.font.size = Pt(12)
chart.has_title = True
chart.chart_title.text_frame.text = "Sales by region"
path = "chart.pptx"
prs.save(path)
back = Presentation(path)
ch = [sh for sh in back.slides[0].shapes if sh.has_chart][0].chart
print(ch.chart_type, ch.has_legend, ch.legend.position, ch.chart_title.text_frame.text, ch.value_axis.maximum_scale)
print(list(ch.plots[0].categories), [(sr.name, list(sr.values)) for sr in ch.series])
wb = openpyxl.load_workbook(io.BytesIO(ch.part.chart_workbook.xlsx_part.blob))
ws = wb.worksheets[0]
print(wb.sheetnames, [[c.value for c in row] for row in ws.iter_rows()])
""",
    _PARTS,
)
_case(
    "pptx_chart_line_pie_xy",
    """
from pptx import Presentation
from pptx.chart.data import CategoryChartData, XyChartData
from pptx.enum.chart import XL_CHART_TYPE, XL_MARKER_STYLE
from pptx.util import Inches
prs = Presentation()
layout = prs.slide_layouts[6]
s1 = prs.slides.add_slide(layout)
cd = CategoryChartData(number_format="0%")
cd.categories = ["Jan", "Feb", "Mar", "Apr"]
cd.add_series("Conversion", (0.12, 0.15, 0.11, 0.19))
line = s1.shapes.add_chart(XL_CHART_TYPE.LINE_MARKERS, Inches(0.5), Inches(0.5), Inches(4.5), Inches(3), cd).chart
line.series[0].smooth = False
line.series[0].marker.style = XL_MARKER_STYLE.CIRCLE
pie_data = CategoryChartData()
pie_data.categories = ["Desktop", "Mobile", "Tablet"]
pie_data.add_series("Share", (0.55, 0.38, 0.07))
pie = s1.shapes.add_chart(XL_CHART_TYPE.PIE, Inches(5), Inches(0.5), Inches(4.5), Inches(3), pie_data).chart
pie.plots[0].has_data_labels = True
pie.plots[0].data_labels.show_percentage = True
s2 = prs.slides.add_slide(layout)
xy = XyChartData()
series = xy.add_series("Measured")
for x, y in [(1, 2.1), (2, 3.9), (3, 6.2), (4, 7.8)]:
    series.add_data_point(x, y)
s2.shapes.add_chart(XL_CHART_TYPE.XY_SCATTER, Inches(1), Inches(1), Inches(6), Inches(4), xy)
area = CategoryChartData()
area.categories = ["a", "b"]
area.add_series("s1", (1, 2))
area.add_series("s2", (3, 1))
s2.shapes.add_chart(XL_CHART_TYPE.AREA_STACKED, Inches(7), Inches(1), Inches(3), Inches(3), area)
path = "charts.pptx"
prs.save(path)
back = Presentation(path)
for slide in back.slides:
    for sh in slide.shapes:
        if sh.has_chart:
            c = sh.chart
            print(sh.name, c.chart_type, [type(p).__name__ for p in c.plots], [(s.name, [round(v, 4) for v in s.values]) for s in c.series])
xs = [sh for sh in back.slides[1].shapes if sh.has_chart][0].chart.series[0]
print(list(xs.iter_values()), xs.chart_type if hasattr(xs, "chart_type") else "")
""",
    _PARTS,
)
_case(
    "pptx_shapes_textboxes",
    """
from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.enum.shapes import MSO_CONNECTOR, MSO_SHAPE
from pptx.enum.text import MSO_ANCHOR, MSO_AUTO_SIZE, PP_ALIGN
from pptx.util import Emu, Inches, Pt
prs = Presentation()
prs.slide_width, prs.slide_height = Inches(13.333), Inches(7.5)
s = prs.slides.add_slide(prs.slide_layouts[6])
box = s.shapes.add_shape(MSO_SHAPE.ROUNDED_RECTANGLE, Inches(1), Inches(1), Inches(3), Inches(1.5))
box.fill.solid()
box.fill.fore_color.rgb = RGBColor(0x2E, 0x86, 0xC1)
box.line.color.rgb = RGBColor(0, 0, 0)
box.line.width = Pt(2)
box.text_frame.text = "Step 1"
box.text_frame.vertical_anchor = MSO_ANCHOR.MIDDLE
box.text_frame.paragraphs[0].alignment = PP_ALIGN.CENTER
arrow = s.shapes.add_shape(MSO_SHAPE.RIGHT_ARROW, Inches(4.5), Inches(1.4), Inches(1), Inches(0.7))
arrow.rotation = 15
oval = s.shapes.add_shape(MSO_SHAPE.OVAL, Inches(6), Inches(1), Inches(2), Inches(2))
oval.fill.background()
star = s.shapes.add_shape(MSO_SHAPE.STAR_5_POINT, Inches(9), Inches(1), Inches(1.5), Inches(1.5))
star.adjustments[0] = 0.3
tb = s.shapes.add_textbox(Inches(1), Inches(4), Inches(6), Inches(1))
tf = tb.text_frame
tf.word_wrap = True
tf.auto_size = MSO_AUTO_SIZE.SHAPE_TO_FIT_TEXT
p = tf.paragraphs[0]
run = p.add_run()
run.text = "Bold blue "
run.font.bold = True
run.font.color.rgb = RGBColor(0, 0, 255)
run = p.add_run()
run.text = "link"
run.hyperlink.address = "https://example.com"
conn = s.shapes.add_connector(MSO_CONNECTOR.STRAIGHT, Inches(4), Inches(1.75), Inches(6), Inches(2))
conn.begin_connect(box, 3)
conn.end_connect(oval, 1)
group = s.shapes.add_group_shape()
group.shapes.add_shape(MSO_SHAPE.RECTANGLE, Inches(1), Inches(5.5), Inches(1), Inches(1))
group.shapes.add_shape(MSO_SHAPE.RECTANGLE, Inches(2.5), Inches(5.5), Inches(1), Inches(1))
path = "shapes.pptx"
prs.save(path)
back = Presentation(path)
print(back.slide_width, back.slide_height)
for sh in back.slides[0].shapes:
    extra = sh.auto_shape_type if sh.shape_type == 1 else None
    print(sh.shape_id, sh.name, sh.shape_type, extra, sh.left, sh.top, sh.width, sh.height, sh.rotation, sh.has_text_frame and sh.text_frame.text)
grp = [sh for sh in back.slides[0].shapes if sh.shape_type == 6][0]
print([(c.name, c.left, c.top) for c in grp.shapes], grp.left, grp.width)
print(back.slides[0].shapes[4].text_frame.paragraphs[0].runs[1].hyperlink.address, [round(a, 4) for a in back.slides[0].shapes[3].adjustments])
""",
    _PARTS,
)
_case(
    "pptx_picture_from_pillow",
    """
import io
from PIL import Image, ImageDraw
from pptx import Presentation
from pptx.util import Inches
img = Image.new("RGB", (320, 240), (250, 250, 245))
d = ImageDraw.Draw(img)
d.ellipse((60, 40, 260, 200), fill=(220, 80, 60), outline=(0, 0, 0), width=4)
d.line((0, 239, 319, 0), fill=(30, 30, 160), width=5)
buf = io.BytesIO()
img.save(buf, "PNG")
buf.seek(0)
prs = Presentation()
s = prs.slides.add_slide(prs.slide_layouts[8])
s.shapes.title.text = "A picture"
pic = s.shapes.add_picture(buf, Inches(1), Inches(1.5), width=Inches(4))
pic.crop_left = 0.1
pic.crop_right = 0.05
img.save("same.png")
s2 = prs.slides.add_slide(prs.slide_layouts[6])
s2.shapes.add_picture("same.png", 0, 0)
s2.notes_slide.notes_text_frame.text = "Same image twice: one media part."
path = "pictures.pptx"
prs.save(path)
back = Presentation(path)
for slide in back.slides:
    for sh in slide.shapes:
        if sh.shape_type == 13:
            im = sh.image
            print(sh.name, sh.width, sh.height, round(sh.crop_left, 3), round(sh.crop_right, 3), im.content_type, im.ext, im.size, im.dpi, im.filename)
print(len({sh.image.sha1 for slide in back.slides for sh in slide.shapes if sh.shape_type == 13}))
print([ph.placeholder_format.type for ph in back.slides[0].placeholders])
""",
    _PARTS,
)
_case(
    "pptx_edit_reorder_delete",
    """
from pptx import Presentation
from pptx.util import Inches
prs = Presentation()
for i in range(4):
    s = prs.slides.add_slide(prs.slide_layouts[1])
    s.shapes.title.text = f"Slide {i + 1}"
    s.placeholders[1].text = f"Body {i + 1}"
prs.save("draft.pptx")
prs = Presentation("draft.pptx")
for slide in prs.slides:
    for shape in slide.shapes:
        if shape.has_text_frame and shape.text_frame.text.startswith("Body"):
            shape.text_frame.paragraphs[0].runs[0].text = shape.text_frame.text.replace("Body", "Content")
extra = prs.slides.add_slide(prs.slide_layouts[6])
extra.shapes.add_textbox(Inches(1), Inches(1), Inches(3), Inches(1)).text_frame.text = "appended"
sld_ids = prs.slides._sldIdLst
victim = list(sld_ids)[1]
prs.part.drop_rel(victim.rId)
sld_ids.remove(victim)
items = list(sld_ids)
sld_ids.remove(items[-2])
sld_ids.insert(0, items[-2])
path = "edited.pptx"
prs.save(path)
back = Presentation(path)
for slide in back.slides:
    print(slide.slide_id, [sh.text_frame.text for sh in slide.shapes if sh.has_text_frame])
print([layout.name for layout in back.slide_layouts])
print([sm.name for sm in back.slide_masters[0].shapes][:4], len(back.slide_masters))
""",
    _PARTS,
)
_case(
    "pptx_layouts_placeholders",
    """
from pptx import Presentation
prs = Presentation()
for i, layout in enumerate(prs.slide_layouts):
    print(i, layout.name, [(ph.placeholder_format.idx, str(ph.placeholder_format.type).split(" ")[0], ph.name) for ph in layout.placeholders])
s = prs.slides.add_slide(prs.slide_layouts[3])
for ph in s.placeholders:
    ph.text = f"placeholder {ph.placeholder_format.idx}"
path = "layouts.pptx"
prs.save(path)
back = Presentation(path)
print([(ph.placeholder_format.idx, ph.text_frame.text, ph.left, ph.top) for ph in back.slides[0].placeholders])
print(back.core_properties.title, repr(back.core_properties.author), back.core_properties.revision)
""",
    _PARTS,
)
