//! Static data for the sandbox demo organization.
//!
//! This module describes a fictitious creditor (a neighbourhood bakery and
//! grocery) together with its debtors and charges, used to seed a sandbox
//! organization so that a Régua de Cobrança (dunning schedule) can be tried
//! out without touching real data.
//!
//! Every CPF/CNPJ below is a number with valid check digits that was
//! generated for this demo; none of them belongs to a real person or company
//! on purpose. E-mails use example domains and phone numbers are made up.
//! One of the company debtors uses the alphanumeric CNPJ format introduced by
//! IN RFB 2.229/2024.
//!
//! Due dates are relative (`due_in_days`) to the day the demo is created, so
//! the data always contains a mix of upcoming and overdue charges.

/// Name of the demo creditor.
pub const ORGANIZATION_NAME: &str = "Padaria e Mercearia Boa Vista Ltda";
/// CNPJ of the demo creditor (14 digits, valid check digits, fictitious).
pub const ORGANIZATION_DOCUMENT: &str = "91067978000126";

/// The name and city its Pix codes carry (a BR Code holds 25 and 15 characters).
pub const PIX_MERCHANT_NAME: &str = "Padaria Boa Vista";
pub const PIX_MERCHANT_CITY: &str = "São Paulo";

/// Postal address of a demo debtor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DemoAddress {
    /// CEP, 8 digits.
    pub zipcode: &'static str,
    pub street: &'static str,
    pub number: &'static str,
    pub complement: Option<&'static str>,
    pub neighborhood: &'static str,
    pub city: &'static str,
    /// UF, two uppercase letters.
    pub state: &'static str,
}

/// A demo debtor (pessoa física with CPF or pessoa jurídica with CNPJ).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DemoDebtor {
    pub name: &'static str,
    /// CPF (11 digits) or CNPJ (14 characters, possibly alphanumeric).
    pub document: &'static str,
    pub email: Option<&'static str>,
    /// E.164, e.g. `+5511987654321`.
    pub mobile: Option<&'static str>,
    /// E.164 landline, e.g. `+551132654870`.
    pub phone: Option<&'static str>,
    pub address: Option<DemoAddress>,
    pub tags: &'static [&'static str],
    pub archived: bool,
}

/// Final state a demo charge should be put into after creation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DemoOutcome {
    Open,
    Paid,
    PartiallyPaid {
        paid_cents: i64,
    },
    Canceled,
    /// In an agreement whose down payment is paid.
    Renegotiated,
    /// Back in the régua after its agreement broke.
    RenegotiationBroken,
    /// Reported to a credit bureau after its letter.
    Reported,
    /// Protested: the debtor served, the protest not drawn yet.
    Protested,
}

/// A demo charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DemoCharge {
    /// Index into [`DEBTORS`].
    pub debtor: usize,
    pub description: &'static str,
    pub amount_cents: i64,
    /// Relative to the day the demo is created; negative = past (overdue).
    pub due_in_days: i32,
    pub outcome: DemoOutcome,
}

const fn addr(
    zipcode: &'static str,
    street: &'static str,
    number: &'static str,
    complement: Option<&'static str>,
    neighborhood: &'static str,
    city: &'static str,
    state: &'static str,
) -> Option<DemoAddress> {
    Some(DemoAddress { zipcode, street, number, complement, neighborhood, city, state })
}

pub const DEBTORS: &[DemoDebtor] = &[
    // 0
    DemoDebtor {
        name: "Ana Paula Ferreira da Silva",
        document: "09836166980",
        email: Some("ana.ferreira@exemplo.com.br"),
        mobile: Some("+5511987234561"),
        phone: None,
        address: addr(
            "04538132",
            "Avenida Brigadeiro Faria Lima",
            "3477",
            Some("Apto 142"),
            "Itaim Bibi",
            "São Paulo",
            "SP",
        ),
        tags: &["varejo", "recorrente"],
        archived: false,
    },
    // 1
    DemoDebtor {
        name: "Carlos Eduardo Oliveira",
        document: "17473184261",
        email: Some("carlos.oliveira@exemplo.com.br"),
        mobile: Some("+5521998156234"),
        phone: Some("+552125417830"),
        address: addr(
            "22270010",
            "Rua Voluntários da Pátria",
            "190",
            Some("Apto 501"),
            "Botafogo",
            "Rio de Janeiro",
            "RJ",
        ),
        tags: &["varejo"],
        archived: false,
    },
    // 2
    DemoDebtor {
        name: "Mariana Costa Ribeiro",
        document: "35180057078",
        email: Some("mariana.ribeiro@exemplo.com.br"),
        mobile: Some("+5531991427785"),
        phone: None,
        address: addr("30160011", "Rua da Bahia", "1148", Some("Sala 903"), "Centro", "Belo Horizonte", "MG"),
        tags: &["varejo", "caderneta"],
        archived: false,
    },
    // 3
    DemoDebtor {
        name: "João Pedro Almeida Santos",
        document: "41068650176",
        email: Some("joao.santos@exemplo.com"),
        mobile: Some("+5541996632018"),
        phone: None,
        address: addr("80020310", "Rua XV de Novembro", "621", None, "Centro", "Curitiba", "PR"),
        tags: &["varejo"],
        archived: false,
    },
    // 4
    DemoDebtor {
        name: "Fernanda Lima Rocha",
        document: "42404942220",
        email: Some("fernanda.rocha@exemplo.com.br"),
        mobile: Some("+5551984470312"),
        phone: Some("+555132264718"),
        address: addr(
            "90020007",
            "Rua dos Andradas",
            "1234",
            Some("Apto 81"),
            "Centro Histórico",
            "Porto Alegre",
            "RS",
        ),
        tags: &["varejo", "recorrente"],
        archived: false,
    },
    // 5
    DemoDebtor {
        name: "Rafael Souza Nascimento",
        document: "46580982101",
        email: Some("rafael.nascimento@exemplo.com.br"),
        mobile: Some("+5571992583340"),
        phone: None,
        address: addr("40060001", "Avenida Sete de Setembro", "1820", None, "Centro", "Salvador", "BA"),
        tags: &["varejo", "caderneta"],
        archived: false,
    },
    // 6
    DemoDebtor {
        name: "Juliana Martins Carvalho",
        document: "51796068020",
        email: Some("juliana.carvalho@exemplo.com.br"),
        mobile: Some("+5581988741206"),
        phone: None,
        address: addr("50050000", "Rua da Aurora", "325", Some("Apto 1202"), "Boa Vista", "Recife", "PE"),
        tags: &["varejo", "vip"],
        archived: false,
    },
    // 7
    DemoDebtor {
        name: "Francisco das Chagas Pereira",
        document: "58189557378",
        email: Some("francisco.pereira@exemplo.com.br"),
        mobile: Some("+5585997310458"),
        phone: Some("+558532518064"),
        address: addr("60025060", "Rua Barão do Rio Branco", "1071", None, "Centro", "Fortaleza", "CE"),
        tags: &["varejo", "caderneta"],
        archived: false,
    },
    // 8
    DemoDebtor {
        name: "Patrícia Gomes Araújo",
        document: "60267275900",
        email: Some("patricia.araujo@exemplo.com.br"),
        mobile: Some("+5561993084127"),
        phone: None,
        address: addr("70355030", "SQS 308 Bloco C", "204", None, "Asa Sul", "Brasília", "DF"),
        tags: &["varejo", "recorrente", "vip"],
        archived: false,
    },
    // 9
    DemoDebtor {
        name: "Antônio Carlos Barbosa",
        document: "61744174504",
        email: Some("antonio.barbosa@exemplo.com"),
        mobile: Some("+5592991746230"),
        phone: None,
        address: addr("69010001", "Avenida Eduardo Ribeiro", "520", Some("Loja 2"), "Centro", "Manaus", "AM"),
        tags: &["varejo"],
        archived: false,
    },
    // 10
    DemoDebtor {
        name: "Camila Rodrigues Teixeira",
        document: "62110772387",
        email: Some("camila.teixeira@exemplo.com.br"),
        mobile: Some("+5519996218845"),
        phone: Some("+551932367104"),
        address: addr("13015001", "Rua Barão de Jaguara", "945", Some("Apto 73"), "Centro", "Campinas", "SP"),
        tags: &["varejo", "vip"],
        archived: false,
    },
    // 11
    DemoDebtor {
        name: "Lucas Henrique Moreira",
        document: "63096281785",
        email: Some("lucas.moreira@exemplo.com.br"),
        mobile: Some("+5548991573026"),
        phone: None,
        address: addr("88010000", "Rua Felipe Schmidt", "315", None, "Centro", "Florianópolis", "SC"),
        tags: &["varejo", "recorrente"],
        archived: false,
    },
    // 12 — archived: only paid/canceled charges.
    DemoDebtor {
        name: "Beatriz Cardoso Mendes",
        document: "72105175295",
        email: Some("beatriz.mendes@exemplo.com.br"),
        mobile: Some("+5511976402258"),
        phone: None,
        address: addr("01305000", "Rua Augusta", "1508", Some("Apto 34"), "Consolação", "São Paulo", "SP"),
        tags: &["varejo"],
        archived: true,
    },
    // 13 — no address.
    DemoDebtor {
        name: "Roberto Alves Cavalcanti",
        document: "77503911930",
        email: Some("roberto.cavalcanti@exemplo.com.br"),
        mobile: Some("+5581996534471"),
        phone: None,
        address: None,
        tags: &["varejo", "caderneta"],
        archived: false,
    },
    // 14 — no e-mail.
    DemoDebtor {
        name: "Luciana Freitas Dias",
        document: "79685986568",
        email: None,
        mobile: Some("+5562998127734"),
        phone: None,
        address: addr("74005010", "Avenida Goiás", "410", None, "Setor Central", "Goiânia", "GO"),
        tags: &["varejo", "recorrente"],
        archived: false,
    },
    // 15
    DemoDebtor {
        name: "Thiago Ramos Correia",
        document: "83122038005",
        email: Some("thiago.correia@exemplo.com"),
        mobile: Some("+5591992450817"),
        phone: None,
        address: addr(
            "66010000",
            "Avenida Presidente Vargas",
            "762",
            Some("Apto 1504"),
            "Campina",
            "Belém",
            "PA",
        ),
        tags: &["varejo"],
        archived: false,
    },
    // 16 — no address.
    DemoDebtor {
        name: "Aline Batista Monteiro",
        document: "90079579108",
        email: Some("aline.monteiro@exemplo.com.br"),
        mobile: Some("+5561984316592"),
        phone: None,
        address: None,
        tags: &["varejo"],
        archived: false,
    },
    // 17
    DemoDebtor {
        name: "Gustavo Pinto Farias",
        document: "96108934069",
        email: Some("gustavo.farias@exemplo.com.br"),
        mobile: Some("+5527997851403"),
        phone: None,
        address: addr(
            "29010002",
            "Avenida Jerônimo Monteiro",
            "1000",
            Some("Sala 412"),
            "Centro",
            "Vitória",
            "ES",
        ),
        tags: &["varejo"],
        archived: false,
    },
    // 18 — no e-mail and no mobile: landline only.
    DemoDebtor {
        name: "Sebastiana Lopes de Souza",
        document: "97945725279",
        email: None,
        mobile: None,
        phone: Some("+558432114687"),
        address: addr("59025000", "Avenida Rio Branco", "571", None, "Cidade Alta", "Natal", "RN"),
        tags: &["varejo", "caderneta"],
        archived: false,
    },
    // 19 — company.
    DemoDebtor {
        name: "Supermercado Bom Preço Ltda",
        document: "38847107000142",
        email: Some("financeiro@bompreco.exemplo.com.br"),
        mobile: Some("+5511991830476"),
        phone: Some("+551134567812"),
        address: addr("03008000", "Rua da Mooca", "2210", None, "Mooca", "São Paulo", "SP"),
        tags: &["atacado", "recorrente", "vip"],
        archived: false,
    },
    // 20 — company.
    DemoDebtor {
        name: "Restaurante Sabor Mineiro Ltda",
        document: "37780013000130",
        email: Some("contas.pagar@sabormineiro.exemplo.com.br"),
        mobile: Some("+5531987652290"),
        phone: Some("+553132245561"),
        address: addr(
            "30130001",
            "Avenida Afonso Pena",
            "1901",
            Some("Loja A"),
            "Centro",
            "Belo Horizonte",
            "MG",
        ),
        tags: &["atacado", "recorrente"],
        archived: false,
    },
    // 21 — company.
    DemoDebtor {
        name: "Lanchonete Ponto Certo ME",
        document: "43100183000120",
        email: Some("pontocerto@exemplo.com.br"),
        mobile: Some("+5521996047318"),
        phone: Some("+552122687430"),
        address: addr("20520053", "Rua Conde de Bonfim", "344", None, "Tijuca", "Rio de Janeiro", "RJ"),
        tags: &["atacado", "recorrente"],
        archived: false,
    },
    // 22 — company.
    DemoDebtor {
        name: "Cafeteria Araucária Ltda",
        document: "30970674000180",
        email: Some("financeiro@cafearaucaria.exemplo.com.br"),
        mobile: Some("+5541998213064"),
        phone: Some("+554133229071"),
        address: addr(
            "80230000",
            "Avenida Sete de Setembro",
            "2775",
            Some("Loja 3"),
            "Rebouças",
            "Curitiba",
            "PR",
        ),
        tags: &["atacado"],
        archived: false,
    },
    // 23 — company with an alphanumeric CNPJ (IN RFB 2.229/2024).
    DemoDebtor {
        name: "Hotel Beira-Mar Fortaleza Ltda",
        document: "7XQ4R2MB000197",
        email: Some("compras@hotelbeiramar.exemplo.com.br"),
        mobile: Some("+5585991426653"),
        phone: Some("+558534869920"),
        address: addr("60165121", "Avenida Beira Mar", "3980", None, "Meireles", "Fortaleza", "CE"),
        tags: &["atacado", "recorrente", "vip"],
        archived: false,
    },
];

const fn charge(
    debtor: usize,
    description: &'static str,
    amount_cents: i64,
    due_in_days: i32,
    outcome: DemoOutcome,
) -> DemoCharge {
    DemoCharge { debtor, description, amount_cents, due_in_days, outcome }
}

use DemoOutcome::{
    Canceled, Open, Paid, PartiallyPaid, Protested, Renegotiated, RenegotiationBroken, Reported,
};

pub const CHARGES: &[DemoCharge] = &[
    charge(0, "Mensalidade clube do pão outubro/2026", 18_990, 12, Open),
    charge(0, "Mensalidade clube do pão setembro/2026", 18_990, -18, Open),
    charge(0, "Mensalidade clube do pão agosto/2026", 18_990, -48, Paid),
    charge(1, "Encomenda bolo de aniversário - 3 kg", 27_450, -7, Open),
    charge(1, "Kit festa - 200 salgados e 100 doces", 41_800, 9, Open),
    charge(2, "Caderneta - compras de setembro/2026", 63_725, -25, PartiallyPaid { paid_cents: 30_000 }),
    charge(2, "Caderneta - compras de outubro/2026", 51_210, 5, Open),
    charge(3, "Cesta de café da manhã - entrega a domicílio", 14_990, -3, Open),
    charge(4, "Mensalidade clube do pão outubro/2026", 9_990, 15, Open),
    charge(4, "Encomenda de panetones - Natal", 35_900, -60, Canceled),
    charge(5, "Caderneta - compras de agosto/2026", 48_260, -75, Renegotiated),
    charge(6, "Torta salgada e bolo - confraternização", 22_990, -12, Paid),
    charge(6, "Encomenda de pães de queijo congelados", 8_750, 20, Open),
    charge(7, "Caderneta - compras de julho/2026", 112_340, -120, Reported),
    charge(8, "Assinatura cesta semanal - outubro/2026", 31_960, 7, Open),
    charge(8, "Assinatura cesta semanal - setembro/2026", 31_960, -23, Paid),
    charge(9, "Encomenda de salgados - 500 unidades", 47_500, -40, RenegotiationBroken),
    charge(10, "Bolo de casamento - 3 andares (saldo)", 185_000, 30, Open),
    charge(10, "Bolo de casamento - sinal", 50_000, -30, Paid),
    charge(11, "Mensalidade clube do pão - plano básico", 3_590, -5, Open),
    charge(12, "Caderneta - compras de maio/2026", 27_830, -110, Paid),
    charge(12, "Encomenda de doces finos - 300 unidades", 19_900, -95, Canceled),
    charge(13, "Caderneta - compras de setembro/2026", 38_615, -33, Open),
    charge(14, "Pão de forma integral - assinatura mensal", 6_480, -90, Open),
    charge(15, "Cesta de Natal - reserva", 25_990, 45, Open),
    charge(16, "Caderneta - compras de agosto/2026", 17_345, -52, Canceled),
    charge(17, "Kit festa infantil - 100 salgados", 21_900, -15, Paid),
    charge(18, "Caderneta - compras de setembro/2026", 9_215, -20, Open),
    charge(19, "Pedido 4821 - atacado", 1_240_000, 10, Open),
    charge(19, "Pedido 4755 - atacado", 986_350, -35, PartiallyPaid { paid_cents: 500_000 }),
    charge(19, "Pedido 4690 - atacado", 1_312_080, -65, Paid),
    charge(20, "Fornecimento de pães - semana 43", 284_760, 4, Open),
    charge(20, "Fornecimento de pães - semana 42", 279_310, -10, Open),
    charge(20, "Fornecimento de pães - semana 41", 281_945, -17, Paid),
    charge(21, "Fornecimento de pães e frios - outubro/2026", 462_390, 21, Open),
    charge(
        21,
        "Fornecimento de pães e frios - setembro/2026 (emitida em duplicidade)",
        455_870,
        -9,
        Canceled,
    ),
    charge(22, "Fornecimento de bolos e tortas - outubro/2026", 198_700, 14, Open),
    charge(22, "Fornecimento de bolos e tortas - setembro/2026", 201_455, -45, Protested),
    charge(23, "Contrato de café da manhã - outubro/2026", 1_850_000, 25, Open),
    charge(23, "Contrato de café da manhã - setembro/2026", 1_850_000, -28, Paid),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(DEBTORS.len(), 24);
        assert_eq!(CHARGES.len(), 40);
        assert!(DEBTORS.iter().any(|d| d.archived));
        assert_eq!(DEBTORS.iter().filter(|d| d.document.len() == 14).count(), 5);
        assert!(DEBTORS.iter().any(|d| d.address.is_none()));
        assert!(DEBTORS.iter().any(|d| d.email.is_none()));
    }

    #[test]
    fn outcome_mix() {
        let n = |f: &dyn Fn(&DemoCharge) -> bool| CHARGES.iter().filter(|c| f(c)).count();
        assert!(n(&|c| c.outcome == Open && c.due_in_days > 0) >= 8);
        assert!(n(&|c| c.outcome == Open && c.due_in_days < 0) >= 8);
        assert!(n(&|c| c.outcome == Paid) >= 6);
        assert_eq!(n(&|c| matches!(c.outcome, PartiallyPaid { .. })), 2);
        assert!(n(&|c| c.outcome == Canceled) >= 4);
        for settling in [Renegotiated, RenegotiationBroken, Reported, Protested] {
            assert_eq!(n(&|c| c.outcome == settling && c.due_in_days <= -30), 1, "{settling:?}");
        }
        for c in CHARGES {
            assert!((3_590..=1_850_000).contains(&c.amount_cents), "{}", c.description);
            if let PartiallyPaid { paid_cents } = c.outcome {
                assert!(paid_cents > 0 && paid_cents < c.amount_cents);
                assert!(c.due_in_days < 0);
            }
            if c.outcome == Open && c.due_in_days < 0 {
                assert!((-120..=-3).contains(&c.due_in_days));
            }
        }
    }

    #[test]
    fn debtor_indices_valid() {
        for c in CHARGES {
            assert!(c.debtor < DEBTORS.len(), "{}", c.description);
        }
    }

    #[test]
    fn no_open_charge_on_archived_debtor() {
        for c in CHARGES {
            if DEBTORS[c.debtor].archived {
                assert!(
                    matches!(c.outcome, Paid | Canceled),
                    "open charge on archived debtor: {}",
                    c.description
                );
            }
        }
    }

    #[test]
    fn documents_unique() {
        let mut docs: Vec<&str> = DEBTORS.iter().map(|d| d.document).collect();
        docs.push(ORGANIZATION_DOCUMENT);
        let total = docs.len();
        docs.sort_unstable();
        docs.dedup();
        assert_eq!(docs.len(), total);
    }

    // The demo data passes the same validation as data sent to the API, so the demo never
    // shows what a real organization could not have.
    #[test]
    fn documents_valid() {
        assert!(crate::domain::parse_document(ORGANIZATION_DOCUMENT).is_ok());
        assert_eq!(super::super::pix_account().kind, crate::domain::pix_account::PixKeyKind::Cnpj);
        for d in DEBTORS {
            let document = crate::domain::parse_document(d.document);
            assert_eq!(document.map(|doc| doc.value).as_deref(), Ok(d.document), "{}", d.name);
        }
        assert!(DEBTORS.iter().any(|d| d.document.bytes().any(|b| b.is_ascii_uppercase())));
    }

    #[test]
    fn contacts_well_formed() {
        use crate::domain::{parse_cep, parse_email, parse_mobile, parse_phone, parse_uf};
        for d in DEBTORS {
            if let Some(e) = d.email {
                assert_eq!(parse_email(e).as_deref(), Ok(e));
                assert!(e.contains("exemplo.com"), "{e}");
            }
            if let Some(m) = d.mobile {
                assert_eq!(parse_mobile(m).as_deref(), Ok(m));
            }
            if let Some(p) = d.phone {
                assert_eq!(parse_phone(p).as_deref(), Ok(p));
            }
            if let Some(a) = d.address {
                assert_eq!(parse_cep(a.zipcode).as_deref(), Ok(a.zipcode));
                assert_eq!(parse_uf(a.state).as_deref(), Ok(a.state));
            }
        }
    }
}
